/**
 * For admin-only functions (`system-settings`, `embed`): answers the CORS preflight, and refuses
 * every caller who is not a signed-in admin with 403 before any routing, so a visitor learns
 * nothing about what exists. GoTrue checks the token, so a forged one never counts as an admin.
 */
import { preflight } from './cors.ts';
import { errorResponse } from './http.ts';
import { callerUser, serviceClient } from './supabase.ts';

/** The answer for a preflight or a caller who is not an admin; null when an admin may go on. */
export async function refuseUnlessAdmin(request: Request, env: Record<string, string>): Promise<Response | null> {
  if (request.method === 'OPTIONS') return preflight(request);
  const caller = await callerUser(serviceClient(env), request);
  return caller?.isAdmin ? null : errorResponse(403, 'Nur für Administratoren.', 'forbidden');
}
