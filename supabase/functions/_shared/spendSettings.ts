/**
 * The daily caps and budgets of the functions that spend money, from the function environment
 * (all optional):
 *
 *   SPEND_CAP_MODEL_TOKENS, SPEND_CAP_TTS_CHARACTERS, SPEND_CAP_STT_SECONDS,
 *   SPEND_CAP_EMBEDDING_TOKENS                        per day, all clients together
 *   CLIENT_BUDGET_PERCENT (default 5) of each cap per client (and per visitor session) and day,
 *     or per kind CLIENT_BUDGET_MODEL_TOKENS, CLIENT_BUDGET_TTS_CHARACTERS, CLIENT_BUDGET_STT_SECONDS
 *   NETWORK_BUDGET_PERCENT (default 20) of each cap per network (IPv4 /24, IPv6 /48) and day, or
 *     per kind NETWORK_BUDGET_MODEL_TOKENS, NETWORK_BUDGET_TTS_CHARACTERS, NETWORK_BUDGET_STT_SECONDS
 *
 * Embedding tokens are the admins' (re-reading documents); they have a cap of their own so that an
 * admin never uses up what the visitors' questions need. A visitor's question embedding is part of
 * the question's model tokens.
 */
import { limitFromEnv } from './rateLimit.ts';

export type SpendKind = 'model_tokens' | 'tts_characters' | 'stt_seconds' | 'embedding_tokens';
/** The kinds visitors spend, each with a budget per client, network and session. */
export type VisitorSpendKind = Exclude<SpendKind, 'embedding_tokens'>;

export const SPEND_KINDS: readonly SpendKind[] = ['model_tokens', 'tts_characters', 'stt_seconds', 'embedding_tokens'];
export const VISITOR_SPEND_KINDS: readonly VisitorSpendKind[] = ['model_tokens', 'tts_characters', 'stt_seconds'];

export const SPEND_CAP_DEFAULTS: Record<SpendKind, number> = {
  model_tokens: 1_000_000,
  tts_characters: 100_000,
  stt_seconds: 7_200,
  embedding_tokens: 2_000_000,
};

/** A client's (and a visitor session's) daily budget, in percent of each cap, unless set per kind. */
export const DEFAULT_CLIENT_BUDGET_PERCENT = 5;
/** A network's daily budget, in percent of each cap, unless set per kind. */
export const DEFAULT_NETWORK_BUDGET_PERCENT = 20;

/** The environment's name of each kind (SPEND_CAP_<suffix>, CLIENT_BUDGET_<suffix>, …). */
export const SPEND_ENV_SUFFIX: Record<SpendKind, string> = {
  model_tokens: 'MODEL_TOKENS',
  tts_characters: 'TTS_CHARACTERS',
  stt_seconds: 'STT_SECONDS',
  embedding_tokens: 'EMBEDDING_TOKENS',
};

export function spendCaps(env: Record<string, string>): Record<SpendKind, number> {
  const caps = {} as Record<SpendKind, number>;
  for (const kind of SPEND_KINDS) caps[kind] = limitFromEnv(env[`SPEND_CAP_${SPEND_ENV_SUFFIX[kind]}`], SPEND_CAP_DEFAULTS[kind]);
  return caps;
}

/** <PREFIX>_<KIND> when set, else <PREFIX>_PERCENT (or the default) of the cap, at least 1, never above the cap. */
function sharesOfCaps(env: Record<string, string>, prefix: 'CLIENT_BUDGET' | 'NETWORK_BUDGET'): Record<VisitorSpendKind, number> {
  const caps = spendCaps(env);
  const percent = budgetPercent(env, prefix === 'CLIENT_BUDGET' ? 'client' : 'network');
  const budgets = {} as Record<VisitorSpendKind, number>;
  for (const kind of VISITOR_SPEND_KINDS) {
    const share = Math.max(1, Math.floor((caps[kind] * percent) / 100));
    budgets[kind] = Math.min(caps[kind], limitFromEnv(env[`${prefix}_${SPEND_ENV_SUFFIX[kind]}`], share));
  }
  return budgets;
}

/** Each client's (and each visitor session's) daily budget per kind. */
export function clientBudgets(env: Record<string, string>): Record<VisitorSpendKind, number> {
  return sharesOfCaps(env, 'CLIENT_BUDGET');
}

/** Each network's daily budget per kind, never below a client's. */
export function networkBudgets(env: Record<string, string>): Record<VisitorSpendKind, number> {
  const clients = clientBudgets(env);
  const networks = sharesOfCaps(env, 'NETWORK_BUDGET');
  for (const kind of VISITOR_SPEND_KINDS) networks[kind] = Math.max(networks[kind], clients[kind]);
  return networks;
}

/** The percentage of each cap a client's (and a session's) or a network's budget is, unless set per kind. */
export function budgetPercent(env: Record<string, string>, scope: 'client' | 'network'): number {
  return scope === 'client'
    ? Math.min(100, limitFromEnv(env.CLIENT_BUDGET_PERCENT, DEFAULT_CLIENT_BUDGET_PERCENT))
    : Math.min(100, limitFromEnv(env.NETWORK_BUDGET_PERCENT, DEFAULT_NETWORK_BUDGET_PERCENT));
}
