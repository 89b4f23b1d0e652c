/**
 * Password hashing as GoTrue stores it in auth.users.encrypted_password: bcrypt, cost 10, so a
 * database moved to a real Supabase project keeps working logins (and the other way round).
 */
import bcrypt from 'bcryptjs';

export const BCRYPT_COST = 10;

/** bcrypt only looks at the first 72 bytes; GoTrue refuses longer passwords instead of truncating. */
export const MAX_PASSWORD_BYTES = 72;

export function passwordTooLong(password: string): boolean {
  return Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES;
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

/** False for a missing or malformed hash rather than throwing, so a broken row only fails its own login. */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (!hash || !/^\$2[abxy]\$\d{2}\$/.test(hash)) return false;
  try {
    return await bcrypt.compare(password, hash);
  } catch {
    return false;
  }
}
