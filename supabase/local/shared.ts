/**
 * Pieces every API of the local stack needs alike: the API roles, reading the caller's JWT,
 * quoting identifiers and telling a JSON object apart. Each API words its own errors from the
 * reasons given here, as PostgREST, GoTrue, Storage and Realtime each do.
 */
import type { LocalStackConfig } from './config';
import type { DatabaseRole } from './database';
import { verifyJwt, type Claims } from './jwt';

/** The roles a JWT may name towards the Data API, Storage and Realtime. */
export const API_ROLES: ReadonlySet<string> = new Set<DatabaseRole>(['anon', 'authenticated', 'service_role']);

export function isApiRole(value: unknown): value is DatabaseRole {
  return typeof value === 'string' && API_ROLES.has(value);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A Postgres identifier, double-quoted (only ever used for names checked against the catalog). */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function bearerToken(request: Request): string | null {
  const header = request.headers.get('authorization');
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ?? null;
}

/**
 * A token checked for signature, algorithm, expiry and role. `role` is null when the token names
 * none (PostgREST then uses anon); a role that is not an API role is reason `role`.
 */
export type JwtCheck =
  | { ok: true; role: DatabaseRole | null; claims: Claims }
  | { ok: false; reason: 'malformed' | 'signature' | 'expired' }
  | { ok: false; reason: 'role'; claims: Claims };

export function checkJwt(token: string, secret: string): JwtCheck {
  const verified = verifyJwt(token, secret);
  if (!verified.ok) return verified;
  const role = verified.claims.role;
  if (role === undefined) return { ok: true, role: null, claims: verified.claims };
  if (!isApiRole(role)) return { ok: false, reason: 'role', claims: verified.claims };
  return { ok: true, role, claims: verified.claims };
}

/** Who is calling: the role and claims of the bearer token (or of the apikey when there is none). */
export interface Caller {
  role: DatabaseRole;
  claims: Claims;
  token: string;
}

export type CallerResult = { ok: true; caller: Caller } | { ok: false; reason: 'missing' | 'malformed' | 'signature' | 'expired' | 'role' };

/** The caller as Storage sees it: a token naming one of the API roles. */
export function resolveCaller(request: Request, config: LocalStackConfig): CallerResult {
  const token = bearerToken(request) ?? request.headers.get('apikey');
  if (!token) return { ok: false, reason: 'missing' };
  const checked = checkJwt(token, config.jwtSecret);
  if (!checked.ok) return { ok: false, reason: checked.reason };
  if (checked.role === null) return { ok: false, reason: 'role' };
  return { ok: true, caller: { role: checked.role, claims: checked.claims, token } };
}
