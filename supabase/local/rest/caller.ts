/** The gateway's key check and PostgREST's JWT check, with their error bodies. */
import type { LocalStackConfig } from '../config';
import type { DatabaseRole, JwtClaims } from '../database';
import { json } from '../http';
import { bearerToken, checkJwt } from '../shared';
import { PgrstError } from './errors';

/** Supabase's API gateway rejects a request without any key before PostgREST sees it. */
export class GatewayError extends Error {
  toResponse(): Response {
    return json(401, { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' });
  }
}

export interface RestCaller {
  role: DatabaseRole;
  claims: JwtClaims;
}

function jwtError(code: string, message: string): PgrstError {
  return new PgrstError(401, code, message, null, null, {
    'www-authenticate': `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`,
  });
}

export function authenticate(request: Request, config: LocalStackConfig): RestCaller {
  const token = bearerToken(request) ?? request.headers.get('apikey');
  if (!token) throw new GatewayError();
  const parts = token.split('.').length;
  if (parts !== 3) throw jwtError('PGRST301', `Expected 3 parts in JWT; got ${parts}`);
  const checked = checkJwt(token, config.jwtSecret);
  if (!checked.ok) {
    if (checked.reason === 'expired') throw jwtError('PGRST303', 'JWT expired');
    if (checked.reason === 'malformed') throw jwtError('PGRST301', 'JWT cryptographic operation failed');
    if (checked.reason === 'role') {
      const role: unknown = checked.claims.role;
      throw new PgrstError(403, '42501', `permission denied to set role "${typeof role === 'string' ? role : JSON.stringify(role)}"`);
    }
    throw jwtError('PGRST301', 'No suitable key or wrong key type');
  }
  // withClaims only serialises the claims into request.jwt.claims, whatever their value types.
  const claims = checked.claims as JwtClaims;
  // Without a role claim PostgREST uses its anonymous role.
  return { role: checked.role ?? 'anon', claims };
}
