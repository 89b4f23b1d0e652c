/**
 * Admin-only system settings: `GET /system-settings` (is each provider configured, and its key
 * masked), `POST /system-settings/clear-tts-cache` (empties the private tts cache bucket,
 * `{ removed }`) and `GET /system-settings/usage` (today's spend against the daily caps, how many
 * clients spent it, today's alerts, and the budgets that cannot hold a new visitor's first
 * question, greeting or utterance). The caller must be a signed-in admin; GoTrue checks the
 * token, so neither the anon key nor a forged token gets through (403).
 */
import { refuseUnlessAdmin } from '../_shared/adminOnly.ts';
import { withAllowedOrigin } from '../_shared/cors.ts';
import { errorResponse, json } from '../_shared/http.ts';
import { budgetProblems } from '../_shared/budgetFit.ts';
import { clientBudgets, networkBudgets, spendCaps } from '../_shared/spendSettings.ts';
import { serviceClient } from '../_shared/supabase.ts';
import { clearTtsCache } from '../_shared/ttsCache.ts';
import { systemSettings } from './providerStatus.ts';

const routes: Record<string, { method: string; run: (env: Record<string, string>) => Promise<Response> }> = {
  '/system-settings': { method: 'GET', run: (env) => Promise.resolve(json(200, systemSettings(env))) },
  '/system-settings/clear-tts-cache': { method: 'POST', run: clearCache },
  '/system-settings/usage': { method: 'GET', run: usage },
};

/** The figures of each kind, named as the browser reads them. */
function byKind<T>(values: Record<'model_tokens' | 'tts_characters' | 'stt_seconds', T> & Partial<Record<'embedding_tokens', T>>) {
  return {
    modelTokens: values.model_tokens,
    ttsCharacters: values.tts_characters,
    sttSeconds: values.stt_seconds,
    ...(values.embedding_tokens === undefined ? {} : { embeddingTokens: values.embedding_tokens }),
  };
}

/**
 * Today's spend against the daily caps: `{ caps, today, clients, alerts, budgets, problems }`
 * (see docs/functions.md); the dashboard warns at 80 % and 100 % of a cap from it.
 */
async function usage(env: Record<string, string>): Promise<Response> {
  try {
    const { data } = await serviceClient(env).rpc('usage_today').throwOnError();
    const today = typeof data === 'object' && data !== null && !Array.isArray(data) ? data : {};
    const { clients = {}, alerts = [], ...spent } = today as Record<string, unknown>;
    return json(200, {
      caps: byKind(spendCaps(env)),
      today: spent,
      clients,
      alerts,
      budgets: { client: byKind(clientBudgets(env)), network: byKind(networkBudgets(env)) },
      problems: budgetProblems(env),
    });
  } catch {
    return errorResponse(502, 'Der Verbrauch konnte nicht gelesen werden.', 'usage_error');
  }
}

async function clearCache(env: Record<string, string>): Promise<Response> {
  try {
    return json(200, { removed: await clearTtsCache(serviceClient(env)) });
  } catch {
    // Storage refused or was unreachable; what was removed so far stays removed, a retry finishes.
    return errorResponse(502, 'Der Cache konnte nicht geleert werden.', 'cache_error');
  }
}

export async function handle(request: Request, env: Record<string, string>): Promise<Response> {
  return withAllowedOrigin(request, env, await respond(request, env));
}

async function respond(request: Request, env: Record<string, string>): Promise<Response> {
  const refused = await refuseUnlessAdmin(request, env);
  if (refused) return refused;

  const route = routes[new URL(request.url).pathname.replace(/\/+$/, '')];
  if (!route) return errorResponse(404, 'Not found', 'not_found');
  if (request.method !== route.method) {
    return errorResponse(405, 'Method not allowed', 'method_not_allowed', { Allow: `${route.method}, OPTIONS` });
  }
  return route.run(env);
}
