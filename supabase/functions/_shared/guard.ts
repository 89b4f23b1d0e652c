/**
 * The guard of the public functions that spend the operator's money (coach, tts, stt): per client
 * requests per minute and per day, concurrent streams, a daily budget per client and the daily
 * spend caps of all clients together. The counts live in Postgres (`admit_request`,
 * `reserve_spend`, `settle_spend`, `release_stream`; migrations …_usage_limits.sql and …_sliding_minute.sql), so every
 * function instance shares them; an in-memory window per instance stays in front as a cheap
 * first filter.
 *
 * Spend is reserved, then settled. Admission reserves the most a request can cost (before its
 * body is read) against the client's budget and the day's cap in one atomic step; once the
 * provider has answered, `settle` replaces the reservation by what the provider bills. A burst
 * therefore never passes a cap or a budget: each admitted request's maximum is already counted
 * when the next one asks.
 *
 * The client is its address as the gateway reports it (clientIdentity.ts: IPv6 by its /64), never
 * the first X-Forwarded-For entry, which the client writes itself.
 *
 *   const gate = await admit(request, env, { fn: 'stt', reserve: { kind: 'stt_seconds', amount: 60 }, stream: true });
 *   if (!gate.ok) return gate.response;          // a ready 429 or 503 with CORS headers
 *   try { ...call the provider...; await gate.settle(billedSeconds); }
 *   finally { await gate.settle(0); await gate.release(); }   // settling twice changes nothing
 *
 * Settings (function environment, all optional):
 *   <FN>_RATE_LIMIT, <FN>_DAILY_LIMIT, <FN>_CONCURRENT_LIMIT   per client (FN = COACH, TTS, STT)
 *   SPEND_CAP_MODEL_TOKENS, SPEND_CAP_TTS_CHARACTERS, SPEND_CAP_STT_SECONDS   per day, all clients
 *   CLIENT_BUDGET_PERCENT (default 5) of each cap per client and day, or per kind
 *   CLIENT_BUDGET_MODEL_TOKENS, CLIENT_BUDGET_TTS_CHARACTERS, CLIENT_BUDGET_STT_SECONDS
 *   CLIENT_IP_HEADER   the header the gateway sets (default x-forwarded-for, right-most entry)
 */
import { clientIdentity } from './clientIdentity.ts';
import { errorResponse } from './http.ts';
import { createRateLimiter, limitFromEnv, type RateLimiter } from './rateLimit.ts';
import { serviceClient, type ServiceClient } from './supabase.ts';

export { clientIdentity, UNKNOWN_CLIENT } from './clientIdentity.ts';

export type GuardedFunction = 'coach' | 'tts' | 'stt';
export type SpendKind = 'model_tokens' | 'tts_characters' | 'stt_seconds';

export const guardMessages = {
  rateLimited: 'Zu viele Anfragen. Bitte warte einen Moment.',
  concurrent: 'Es läuft bereits eine Antwort. Bitte warte, bis sie fertig ist.',
  paused: 'Der Live-Test ist für heute pausiert. Bitte versuche es morgen wieder.',
  unavailable: 'Der Dienst ist gerade nicht verfügbar. Bitte versuche es später noch einmal.',
} as const;

/**
 * Per client and function. tts: one coach answer is synthesised in up to five pieces at once
 * (its first clause, then each of its at most four sentences), and after a barge-in the cancelled
 * pieces of the answer before may hold their slots a moment longer, so eight.
 */
const DEFAULTS: Record<GuardedFunction, { perMinute: number; perDay: number; concurrent: number }> = {
  coach: { perMinute: 30, perDay: 300, concurrent: 2 },
  tts: { perMinute: 120, perDay: 1500, concurrent: 8 },
  stt: { perMinute: 30, perDay: 300, concurrent: 2 },
};

export const SPEND_CAP_DEFAULTS: Record<SpendKind, number> = {
  model_tokens: 1_000_000,
  tts_characters: 100_000,
  stt_seconds: 7_200,
};

/** A client's daily budget, in percent of each cap, unless set per kind. */
export const DEFAULT_CLIENT_BUDGET_PERCENT = 5;

const SPEND_ENV_SUFFIX: Record<SpendKind, string> = {
  model_tokens: 'MODEL_TOKENS',
  tts_characters: 'TTS_CHARACTERS',
  stt_seconds: 'STT_SECONDS',
};

/** A stream lease that is not released (the instance died) frees its slot after this long. */
const LEASE_SECONDS = 120;

export interface GuardLimits {
  perMinute: number;
  perDay: number;
  concurrent: number;
}

export function guardLimits(env: Record<string, string>, fn: GuardedFunction): GuardLimits {
  const prefix = fn.toUpperCase();
  const defaults = DEFAULTS[fn];
  return {
    perMinute: limitFromEnv(env[`${prefix}_RATE_LIMIT`], defaults.perMinute),
    perDay: limitFromEnv(env[`${prefix}_DAILY_LIMIT`], defaults.perDay),
    concurrent: limitFromEnv(env[`${prefix}_CONCURRENT_LIMIT`], defaults.concurrent),
  };
}

const KINDS: SpendKind[] = ['model_tokens', 'tts_characters', 'stt_seconds'];

export function spendCaps(env: Record<string, string>): Record<SpendKind, number> {
  const caps = {} as Record<SpendKind, number>;
  for (const kind of KINDS) caps[kind] = limitFromEnv(env[`SPEND_CAP_${SPEND_ENV_SUFFIX[kind]}`], SPEND_CAP_DEFAULTS[kind]);
  return caps;
}

/**
 * Each client's daily budget per kind: CLIENT_BUDGET_<KIND> when set, else CLIENT_BUDGET_PERCENT
 * (default 5) of the cap, at least 1; never more than the cap.
 */
export function clientBudgets(env: Record<string, string>): Record<SpendKind, number> {
  const caps = spendCaps(env);
  const percent = Math.min(100, limitFromEnv(env.CLIENT_BUDGET_PERCENT, DEFAULT_CLIENT_BUDGET_PERCENT));
  const budgets = {} as Record<SpendKind, number>;
  for (const kind of KINDS) {
    const share = Math.max(1, Math.floor((caps[kind] * percent) / 100));
    budgets[kind] = Math.min(caps[kind], limitFromEnv(env[`CLIENT_BUDGET_${SPEND_ENV_SUFFIX[kind]}`], share));
  }
  return budgets;
}

/** In-memory first filter per instance, per project, function and limit. */
const firstFilters = new Map<string, RateLimiter>();

function firstFilter(env: Record<string, string>, fn: GuardedFunction, limit: number): RateLimiter {
  const key = `${env.SUPABASE_URL ?? ''}|${fn}|${String(limit)}`;
  let limiter = firstFilters.get(key);
  if (!limiter) {
    limiter = createRateLimiter(limit, 60_000);
    firstFilters.set(key, limiter);
  }
  return limiter;
}

/**
 * Why a request was refused (`error.code` of the answer): rate_limited, too_many_streams,
 * budget_exhausted (this client's budget for the day is used up: 429), spend_cap_reached (the
 * day's cap of all clients: 503), guard_unavailable (the database could not be asked: 503).
 */
export type Refusal = 'rate_limited' | 'too_many_streams' | 'budget_exhausted' | 'spend_cap_reached' | 'guard_unavailable';

/** An admitted request's hold on spend: one or more reservations, settled once. */
export interface Spending {
  /**
   * Reserves `amount` more of the same kind (the request turned out to need more than admission
   * could know); false, with nothing reserved, when the budget or the cap does not allow it.
   */
  reserveMore(amount: number): Promise<boolean>;
  /** Replaces the reservations by what the request cost; only the first call counts. */
  settle(actual: number): Promise<void>;
}

export type Gate =
  | ({ ok: true; client: string; release: () => Promise<void> } & Spending)
  | { ok: false; reason: Refusal; response: Response };

function refuse(reason: Refusal, status: number, message: string, retryAfter: number): Gate {
  return { ok: false, reason, response: errorResponse(status, message, reason, { 'retry-after': String(retryAfter) }) };
}

export interface AdmitOptions {
  fn: GuardedFunction;
  /**
   * The most the request can cost: reserved against the client's budget and the day's cap. With
   * amount 0 nothing is reserved, but a used-up budget or cap still refuses the request.
   */
  reserve?: { kind: SpendKind; amount: number };
  /** Holds one of the client's concurrent stream slots until release(). */
  stream?: boolean;
}

interface Admission {
  allowed: boolean;
  reason?: string;
  retryAfter?: number;
  lease: string | null;
  reservation: string | null;
}

function admission(value: unknown): Admission {
  if (typeof value !== 'object' || value === null) throw new Error('the guard returned no object');
  const record = value as Record<string, unknown>;
  return {
    allowed: record.allowed === true,
    reason: typeof record.reason === 'string' ? record.reason : undefined,
    retryAfter: typeof record.retryAfter === 'number' ? record.retryAfter : undefined,
    lease: typeof record.lease === 'string' ? record.lease : null,
    reservation: typeof record.reservation === 'string' ? record.reservation : null,
  };
}

function refusalOf(result: Admission): Gate {
  const retryAfter = result.retryAfter ?? 60;
  if (result.reason === 'spend_cap') return refuse('spend_cap_reached', 503, guardMessages.paused, retryAfter);
  if (result.reason === 'budget') return refuse('budget_exhausted', 429, guardMessages.paused, retryAfter);
  if (result.reason === 'concurrency') return refuse('too_many_streams', 429, guardMessages.concurrent, retryAfter);
  return refuse('rate_limited', 429, guardMessages.rateLimited, retryAfter);
}

const noop = () => Promise.resolve();

const logFailure = (fn: string, what: string) => (error: unknown) => {
  console.error(`[${fn}] ${what} failed:`, error instanceof Error ? error.message : error);
};

/** Whole units: a fraction of a token, character or second is billed as a whole one. */
const whole = (amount: number) => (Number.isFinite(amount) ? Math.max(0, Math.ceil(amount)) : 0);

/**
 * Reservations of one kind for one client, settled together. Settling spreads the real cost over
 * them in order; what exceeds them all is added to the last one (the provider billed it).
 */
export function createSpending(
  supabase: ServiceClient,
  scope: { fn: string; client: string; kind: SpendKind; cap: number; budget: number },
  first: { id: string; amount: number } | null,
): Spending {
  const reservations = first ? [first] : [];
  let settled = false;
  return {
    async reserveMore(amount) {
      const wanted = whole(amount);
      if (wanted === 0) return true;
      if (settled) return false;
      try {
        const { data } = await supabase
          .rpc('reserve_spend', { p_client: scope.client, p_kind: scope.kind, p_amount: wanted, p_cap: scope.cap, p_budget: scope.budget })
          .throwOnError();
        const result = admission(data);
        if (!result.allowed || !result.reservation) return false;
        reservations.push({ id: result.reservation, amount: wanted });
        return true;
      } catch (error) {
        logFailure(scope.fn, 'reserving more')(error);
        return false;
      }
    },
    async settle(actual) {
      if (settled) return;
      settled = true;
      let rest = whole(actual);
      for (const [index, reservation] of reservations.entries()) {
        const share = index === reservations.length - 1 ? rest : Math.min(rest, reservation.amount);
        rest -= share;
        // A failed settlement leaves the reservation counted at its maximum: the bill is never undercounted.
        await supabase.rpc('settle_spend', { p_reservation: reservation.id, p_amount: share }).throwOnError().then(noop, logFailure(scope.fn, 'settling'));
      }
    },
  };
}

/** Admits a request or answers why not; see the module comment. */
export async function admit(request: Request, env: Record<string, string>, options: AdmitOptions): Promise<Gate> {
  const limits = guardLimits(env, options.fn);
  const client = clientIdentity(request, env);
  const wait = firstFilter(env, options.fn, limits.perMinute).take(client);
  if (wait > 0) return refuse('rate_limited', 429, guardMessages.rateLimited, wait);

  const supabase = serviceClient(env);
  const kind = options.reserve?.kind ?? null;
  const cap = kind ? spendCaps(env)[kind] : null;
  const budget = kind ? clientBudgets(env)[kind] : null;
  const amount = whole(options.reserve?.amount ?? 0);
  let result: Admission;
  try {
    const { data } = await supabase
      .rpc('admit_request', {
        p_fn: options.fn,
        p_client: client,
        p_per_minute: limits.perMinute,
        p_per_day: limits.perDay,
        p_max_concurrent: options.stream ? limits.concurrent : 0,
        p_lease_seconds: LEASE_SECONDS,
        ...(kind && cap !== null && budget !== null ? { p_kind: kind, p_amount: amount, p_cap: cap, p_budget: budget } : {}),
      })
      .throwOnError();
    result = admission(data);
  } catch (error) {
    // Without the shared counts nothing may be spent: closed, not open.
    logFailure(options.fn, 'admission')(error);
    return refuse('guard_unavailable', 503, guardMessages.unavailable, 30);
  }
  if (!result.allowed) return refusalOf(result);

  const spending =
    kind && cap !== null && budget !== null
      ? createSpending(supabase, { fn: options.fn, client, kind, cap, budget }, result.reservation ? { id: result.reservation, amount } : null)
      : { reserveMore: () => Promise.resolve(true), settle: noop };

  const lease = result.lease;
  let released = false;
  const release = async () => {
    if (released || !lease) return;
    released = true;
    // The lease expires by itself should this fail.
    await supabase.rpc('release_stream', { p_lease: lease }).throwOnError().then(noop, logFailure(options.fn, 'releasing a stream'));
  };
  return { ok: true, client, release, ...spending };
}
