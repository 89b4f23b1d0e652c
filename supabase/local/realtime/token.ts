/** Realtime's token rules and messages: a valid signature, not expired, `role` and `exp` present. */
import type { DatabaseRole } from '../database';
import type { Claims } from '../jwt';
import { checkJwt, isRecord } from '../shared';

export type TokenCheck = { ok: true; claims: Claims; role: DatabaseRole } | { ok: false; code: string; message: string };

function decodeExp(token: string): number | null {
  try {
    const payload: unknown = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return isRecord(payload) && typeof payload.exp === 'number' ? payload.exp : null;
  } catch {
    return null;
  }
}

export function checkToken(token: string, secret: string): TokenCheck {
  const checked = checkJwt(token, secret);
  if (!checked.ok && checked.reason !== 'role') {
    if (checked.reason === 'expired') {
      const exp = decodeExp(token) ?? 0;
      const ago = Math.max(0, Math.floor(Date.now() / 1000) - exp);
      return { ok: false, code: 'InvalidJWTToken', message: `Token has expired ${String(ago)} seconds ago` };
    }
    if (checked.reason === 'signature') {
      return { ok: false, code: 'JwtSignatureError', message: 'Failed to validate JWT signature' };
    }
    return { ok: false, code: 'MalformedJWT', message: 'The token provided is not a valid JWT' };
  }
  const { role, exp } = checked.claims;
  if (typeof role !== 'string' || typeof exp !== 'number') {
    return { ok: false, code: 'InvalidJWTToken', message: 'Fields `role` and `exp` are required in JWT' };
  }
  if (!checked.ok) return { ok: false, code: 'InvalidJWTToken', message: `Role ${role} is not allowed` };
  return { ok: true, claims: checked.claims, role: checked.role ?? 'anon' };
}
