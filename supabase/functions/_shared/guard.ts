/**
 * The guard of the public functions that spend the operator's money (coach, tts, stt): per client
 * requests per minute and per day, concurrent streams, daily budgets per client, per network and
 * (with Turnstile) per visitor session, and the daily spend caps of all clients together. The
 * counts live in Postgres (`admit_request`, `reserve_spend`, `settle_spend`, `release_stream`;
 * migrations …_usage_limits.sql, …_sliding_minute.sql, …_spend_scopes.sql), so every function
 * instance shares them; an in-memory window per instance stays in front as a cheap first filter.
 *
 * Spend is reserved, then settled. Admission reserves the most a request can cost (once its body
 * has been read and checked, so the amount is the request's own) against every budget and the
 * day's cap in one atomic step; once the provider has answered, `settle` replaces the reservation
 * by what the provider bills. A burst therefore never passes a cap or a budget: each admitted
 * request's maximum is already counted when the next one asks. A reservation that is never
 * settled (the instance died) is released after ten minutes.
 *
 * Two steps, so that a function reads and checks its body between them:
 *
 *   const caller = identify(request, env, 'stt');      // no round trip: who, and the first filter
 *   if (!caller.ok) return caller.response;
 *   ...read the body (readBodyUpTo, with its deadline), check it...
 *   const gate = await admitCaller(caller, env, { fn: 'stt', reserve: { kind: 'stt_seconds', amount: seconds }, stream: true });
 *   if (!gate.ok) return gate.response;              // a ready 429 or 503 with the German message
 *   try { ...call the provider...; await gate.settle(billedSeconds); }
 *   finally { await gate.settle(0); await gate.release(); }   // settling twice changes nothing
 *
 * `admit(request, env, options)` does both for a request without a body to check. A stream that
 * spends as it goes (seconds of audio streamed) reserves each piece with `gate.reserveMore(n)`
 * before it sends it and settles at the end.
 *
 * Settings (function environment): <FN>_RATE_LIMIT, <FN>_DAILY_LIMIT, <FN>_CONCURRENT_LIMIT per
 * client (FN = COACH, TTS, STT); the caps and budgets of ./spendSettings.ts; CLIENT_IP_HEADER, the
 * header the gateway writes the client's address into (./clientIdentity.ts; required);
 * TURNSTILE_SECRET_KEY, set when visitors need a session (./visitorSession.ts).
 */
import { catalogue } from './catalogue.ts';
import { clientHeader, clientIdentity, type ClientKey } from './clientIdentity.ts';
import type { Json } from './database.types.ts';
import { errorResponse } from './http.ts';
import { createRateLimiter, limitFromEnv, type RateLimiter } from './rateLimit.ts';
import { clientBudgets, networkBudgets, spendCaps, type VisitorSpendKind } from './spendSettings.ts';
import { createSpending, guardAnswer, logCapAlert, logFailure, noop, whole, type Budget, type GuardAnswer, type Spending } from './spending.ts';
import { serviceClient } from './supabase.ts';
import { sessionRequired, visitorSession } from './visitorSession.ts';

export { clientIdentity } from './clientIdentity.ts';
export { clientBudgets, networkBudgets, spendCaps, SPEND_CAP_DEFAULTS, type SpendKind } from './spendSettings.ts';
export type { Spending } from './spending.ts';

export type GuardedFunction = 'coach' | 'tts' | 'stt';

export const guardMessages = {
  rateLimited: 'Zu viele Anfragen. Bitte warte einen Moment.',
  concurrent: 'Es läuft bereits eine Antwort. Bitte warte, bis sie fertig ist.',
  paused: 'Der Live-Test ist für heute pausiert. Bitte versuche es morgen wieder.',
  unavailable: 'Der Dienst ist gerade nicht verfügbar. Bitte versuche es später noch einmal.',
  /** The request carries no address the guard can count it by (a deployment without CLIENT_IP_HEADER). */
  unidentified: catalogue.processingFailed,
  /** Turnstile is on and the request carries no visitor session. */
  sessionRequired: 'Bitte bestätige zuerst, dass du kein Bot bist, und lade die Seite neu.',
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
 * Why a request was refused (`error.code` of the answer): client_unidentified (no address to
 * count it by: 503), session_required (Turnstile is on and the request has no visitor session:
 * 401), rate_limited, too_many_streams, budget_exhausted (this client's, its network's or its
 * session's budget for the day is used up: 429), spend_cap_reached (the day's cap of all clients:
 * 503), guard_unavailable (the database could not be asked: 503).
 */
export type Refusal =
  | 'client_unidentified'
  | 'session_required'
  | 'rate_limited'
  | 'too_many_streams'
  | 'budget_exhausted'
  | 'spend_cap_reached'
  | 'guard_unavailable';

export type Refused = { ok: false; reason: Refusal; response: Response };

function refuse(reason: Refusal, status: number, message: string, retryAfter: number | null): Refused {
  return { ok: false, reason, response: errorResponse(status, message, reason, retryAfter === null ? {} : { 'retry-after': String(retryAfter) }) };
}

/** Who is asking: the client, its network and (with Turnstile) its session. */
export interface Caller {
  ok: true;
  fn: GuardedFunction;
  key: ClientKey;
  session: string | null;
}

/** The header whose absence has been logged, once per instance (see identify). */
const reportedHeaders = new Set<string>();

function reportUnidentified(fn: GuardedFunction, env: Record<string, string>): void {
  const header = clientHeader(env) ?? '';
  if (reportedHeaders.has(header)) return;
  reportedHeaders.add(header);
  console.error(
    header === ''
      ? `[${fn}] refusing requests: CLIENT_IP_HEADER is not set, so no client can be told apart from another; set it to the header your gateway writes the client's address into (hosted Supabase: cf-connecting-ip)`
      : `[${fn}] refusing a request without a readable address in ${header} (CLIENT_IP_HEADER): is that the header your gateway writes the client's address into (hosted Supabase: cf-connecting-ip)?`,
  );
}

/**
 * The first step, without a round trip: the client's address (refused when there is none, never
 * put in a bucket everyone shares), its session when Turnstile requires one, and the instance's
 * first filter of requests per minute.
 */
export function identify(request: Request, env: Record<string, string>, fn: GuardedFunction): Caller | Refused {
  const key = clientIdentity(request, env);
  if (key === null) {
    reportUnidentified(fn, env);
    return refuse('client_unidentified', 503, guardMessages.unidentified, null);
  }
  const session = visitorSession(request);
  if (session === null && sessionRequired(env)) return refuse('session_required', 401, guardMessages.sessionRequired, null);
  const wait = firstFilter(env, fn, guardLimits(env, fn).perMinute).take(key.client);
  if (wait > 0) return refuse('rate_limited', 429, guardMessages.rateLimited, wait);
  return { ok: true, fn, key, session };
}

/** An admitted request: its stream slot and its hold on spend. */
export type Gate = ({ ok: true; client: string; release: () => Promise<void> } & Spending) | Refused;

export interface AdmitOptions {
  fn: GuardedFunction;
  /**
   * The most the request can cost: reserved against the client's, its network's and its
   * session's budgets and the day's cap. With amount 0 nothing is reserved, but a used-up budget
   * or cap still refuses the request.
   */
  reserve?: { kind: VisitorSpendKind; amount: number };
  /** Holds one of the client's concurrent stream slots until release(). */
  stream?: boolean;
}

function refusalOf(result: GuardAnswer): Refused {
  const retryAfter = result.retryAfter ?? 60;
  if (result.reason === 'spend_cap') return refuse('spend_cap_reached', 503, guardMessages.paused, retryAfter);
  if (result.reason === 'budget') return refuse('budget_exhausted', 429, guardMessages.paused, retryAfter);
  if (result.reason === 'concurrency') return refuse('too_many_streams', 429, guardMessages.concurrent, retryAfter);
  return refuse('rate_limited', 429, guardMessages.rateLimited, retryAfter);
}

/** The budgets a caller's spend of `kind` counts against, as admit_request takes them. */
export function budgetsOf(caller: Caller, env: Record<string, string>, kind: VisitorSpendKind): Budget[] {
  const client = clientBudgets(env)[kind];
  return [
    { scope: 'client', key: caller.key.client, budget: client },
    { scope: 'network', key: caller.key.network, budget: networkBudgets(env)[kind] },
    ...(caller.session === null ? [] : [{ scope: 'session' as const, key: caller.session, budget: client }]),
  ];
}

/** The second step, one round trip: counts, stream slot and the reservation, all at once. */
export async function admitCaller(caller: Caller, env: Record<string, string>, options: AdmitOptions): Promise<Gate> {
  const limits = guardLimits(env, options.fn);
  const supabase = serviceClient(env);
  const kind = options.reserve?.kind ?? null;
  const cap = kind ? spendCaps(env)[kind] : null;
  const budgets = kind ? budgetsOf(caller, env, kind) : [];
  const amount = whole(options.reserve?.amount ?? 0);
  let result: GuardAnswer;
  try {
    const { data } = await supabase
      .rpc('admit_request', {
        p_fn: options.fn,
        p_client: caller.key.client,
        p_per_minute: limits.perMinute,
        p_per_day: limits.perDay,
        p_max_concurrent: options.stream ? limits.concurrent : 0,
        p_lease_seconds: LEASE_SECONDS,
        ...(kind && cap !== null ? { p_kind: kind, p_amount: amount, p_cap: cap, p_budgets: budgets as unknown as Json } : {}),
      })
      .throwOnError();
    result = guardAnswer(data);
  } catch (error) {
    // Without the shared counts nothing may be spent: closed, not open.
    logFailure(options.fn, 'admission')(error);
    return refuse('guard_unavailable', 503, guardMessages.unavailable, 30);
  }
  logCapAlert(options.fn, result.alert);
  if (!result.allowed) return refusalOf(result);

  const spending: Spending =
    kind && cap !== null
      ? createSpending(supabase, { fn: options.fn, kind, cap, budgets }, result.reservation ? { id: result.reservation, amount } : null)
      : { reserveMore: () => Promise.resolve(true), settle: noop };

  const lease = result.lease;
  let released = false;
  const release = async () => {
    if (released || !lease) return;
    released = true;
    // The lease expires by itself should this fail.
    await supabase.rpc('release_stream', { p_lease: lease }).throwOnError().then(noop, logFailure(options.fn, 'releasing a stream'));
  };
  return { ok: true, client: caller.key.client, release, ...spending };
}

/** Both steps at once, for a request whose body need not be read first. */
export async function admit(request: Request, env: Record<string, string>, options: AdmitOptions): Promise<Gate> {
  const caller = identify(request, env, options.fn);
  return caller.ok ? admitCaller(caller, env, options) : caller;
}
