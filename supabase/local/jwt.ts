/**
 * HS256 JSON Web Tokens, as GoTrue issues them and PostgREST checks them. node:crypto only.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type Claims = Record<string, unknown> & { role?: unknown; exp?: unknown; sub?: unknown };

const base64url = (input: Buffer | string) => Buffer.from(input).toString('base64url');

export function signJwt(claims: Claims, secret: string): string {
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = base64url(JSON.stringify(claims));
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

export type VerifyResult = { ok: true; claims: Claims } | { ok: false; reason: 'malformed' | 'signature' | 'expired' };

/** Checks signature, algorithm and expiry; `now` in seconds for tests. */
export function verifyJwt(token: string, secret: string, now = Math.floor(Date.now() / 1000)): VerifyResult {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'malformed' };
  const [header, payload, signature] = parts as [string, string, string];
  let parsedHeader: unknown;
  let claims: unknown;
  try {
    parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof parsedHeader !== 'object' || parsedHeader === null || (parsedHeader as { alg?: unknown }).alg !== 'HS256') {
    return { ok: false, reason: 'signature' };
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return { ok: false, reason: 'malformed' };
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature' };
  const exp = (claims as Claims).exp;
  if (typeof exp === 'number' && exp <= now) return { ok: false, reason: 'expired' };
  return { ok: true, claims: claims as Claims };
}
