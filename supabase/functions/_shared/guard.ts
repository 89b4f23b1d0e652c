/**
 * The guard of the public functions that spend the operator's money (coach, tts, stt): per client
 * requests per minute and per day, concurrent streams per client, and daily spend caps. The counts
 * live in Postgres (`admit_request`, `record_spend`, `release_stream`, migration
 * 20261124001000_usage_limits.sql), so every function instance shares them; an in-memory window
 * per instance stays in front as a cheap first filter.
 *
 * The client is its address as the gateway reports it (see clientIdentity), never the first
 * X-Forwarded-For entry, which the client writes itself. No header is a proof, so the spend caps
 * are the guard that holds regardless of identity.
 *
 * How a function adopts it (stt, for example):
 *
 *   const gate = await admit(request, env, { fn: 'stt', spends: ['stt_seconds'] });
 *   if (!gate.ok) return gate.response;          // a ready 429 or 503 with CORS headers
 *   try { ...call the provider...; await recordSpend(env, 'stt_seconds', seconds); }
 *   finally { await gate.release(); }            // only needed with { stream: true }
 *
 * Settings (function environment, all optional):
 *   <FN>_RATE_LIMIT, <FN>_DAILY_LIMIT, <FN>_CONCURRENT_LIMIT   per client (FN = COACH, TTS, STT)
 *   SPEND_CAP_MODEL_TOKENS, SPEND_CAP_TTS_CHARACTERS, SPEND_CAP_STT_SECONDS   per day, all clients
 *   CLIENT_IP_HEADER   the header the gateway sets (default x-forwarded-for, right-most entry)
 */
import { errorResponse } from './http.ts';
import { createRateLimiter, limitFromEnv, type RateLimiter } from './rateLimit.ts';
import { serviceClient } from './supabase.ts';

export type GuardedFunction = 'coach' | 'tts' | 'stt';
export type SpendKind = 'model_tokens' | 'tts_characters' | 'stt_seconds';

export const guardMessages = {
  rateLimited: 'Zu viele Anfragen. Bitte warte einen Moment.',
  concurrent: 'Es läuft bereits eine Antwort. Bitte warte, bis sie fertig ist.',
  paused: 'Der Live-Test ist für heute pausiert. Bitte versuche es morgen wieder.',
  unavailable: 'Der Dienst ist gerade nicht verfügbar. Bitte versuche es später noch einmal.',
} as const;

/** The identity of requests that carry no usable address: they all share one bucket. */
export const UNKNOWN_CLIENT = 'unknown';

const DEFAULTS: Record<GuardedFunction, { perMinute: number; perDay: number; concurrent: number }> = {
  coach: { perMinute: 30, perDay: 300, concurrent: 2 },
  tts: { perMinute: 120, perDay: 1500, concurrent: 4 },
  stt: { perMinute: 30, perDay: 300, concurrent: 2 },
};

export const SPEND_CAP_DEFAULTS: Record<SpendKind, number> = {
  model_tokens: 1_000_000,
  tts_characters: 100_000,
  stt_seconds: 7_200,
};

const SPEND_CAP_ENV: Record<SpendKind, string> = {
  model_tokens: 'SPEND_CAP_MODEL_TOKENS',
  tts_characters: 'SPEND_CAP_TTS_CHARACTERS',
  stt_seconds: 'SPEND_CAP_STT_SECONDS',
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

export function spendCaps(env: Record<string, string>): Record<SpendKind, number> {
  return {
    model_tokens: limitFromEnv(env[SPEND_CAP_ENV.model_tokens], SPEND_CAP_DEFAULTS.model_tokens),
    tts_characters: limitFromEnv(env[SPEND_CAP_ENV.tts_characters], SPEND_CAP_DEFAULTS.tts_characters),
    stt_seconds: limitFromEnv(env[SPEND_CAP_ENV.stt_seconds], SPEND_CAP_DEFAULTS.stt_seconds),
  };
}

const ADDRESS = /^[0-9a-f:.]{2,45}$/iu;

/**
 * The client's address from the header the gateway sets (CLIENT_IP_HEADER, default
 * x-forwarded-for). A proxy appends the address it saw, so the right-most entry is the one the
 * gateway wrote; everything left of it came from the client. Anything that is not an address
 * counts as no identity.
 */
export function clientIdentity(request: Request, env: Record<string, string>): string {
  const header = env.CLIENT_IP_HEADER?.trim().toLowerCase() || 'x-forwarded-for';
  const entries = (request.headers.get(header) ?? '').split(',').map((entry) => entry.trim());
  const last = entries.at(-1) ?? '';
  return ADDRESS.test(last) ? last.toLowerCase() : UNKNOWN_CLIENT;
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

export type Refusal = 'rate_limited' | 'too_many_streams' | 'spend_cap_reached' | 'guard_unavailable';

export type Gate =
  | { ok: true; client: string; release: () => Promise<void> }
  | { ok: false; reason: Refusal; response: Response };

function refuse(reason: Refusal, status: number, message: string, retryAfter: number): Gate {
  return { ok: false, reason, response: errorResponse(status, message, reason, { 'retry-after': String(retryAfter) }) };
}

export interface AdmitOptions {
  fn: GuardedFunction;
  /** The spend kinds this request will cost; a reached cap refuses it. */
  spends: SpendKind[];
  /** Holds one of the client's concurrent stream slots until release(). */
  stream?: boolean;
}

interface Admission {
  allowed: boolean;
  reason?: string;
  retryAfter?: number;
  lease?: string | null;
}

function admission(value: unknown): Admission {
  if (typeof value !== 'object' || value === null) throw new Error('admit_request returned no object');
  const record = value as Record<string, unknown>;
  return {
    allowed: record.allowed === true,
    reason: typeof record.reason === 'string' ? record.reason : undefined,
    retryAfter: typeof record.retryAfter === 'number' ? record.retryAfter : undefined,
    lease: typeof record.lease === 'string' ? record.lease : null,
  };
}

const noop = () => Promise.resolve();

/** Refused requests name their reason in `error.code`: rate_limited, too_many_streams, spend_cap_reached. */
export async function admit(request: Request, env: Record<string, string>, options: AdmitOptions): Promise<Gate> {
  const limits = guardLimits(env, options.fn);
  const client = clientIdentity(request, env);
  const wait = firstFilter(env, options.fn, limits.perMinute).take(client);
  if (wait > 0) {
    return refuse('rate_limited', 429, guardMessages.rateLimited, wait);
  }

  const caps = spendCaps(env);
  const supabase = serviceClient(env);
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
        p_caps: Object.fromEntries(options.spends.map((kind) => [kind, caps[kind]])),
      })
      .throwOnError();
    result = admission(data);
  } catch (error) {
    // Without the shared counts nothing may be spent: closed, not open.
    console.error(`[${options.fn}] admission failed:`, error instanceof Error ? error.message : error);
    return refuse('guard_unavailable', 503, guardMessages.unavailable, 30);
  }

  if (!result.allowed) {
    const retryAfter = result.retryAfter ?? 60;
    if (result.reason === 'spend_cap') return refuse('spend_cap_reached', 503, guardMessages.paused, retryAfter);
    if (result.reason === 'concurrency') return refuse('too_many_streams', 429, guardMessages.concurrent, retryAfter);
    return refuse('rate_limited', 429, guardMessages.rateLimited, retryAfter);
  }

  const lease = result.lease;
  if (!lease) return { ok: true, client, release: noop };
  let released = false;
  return {
    ok: true,
    client,
    release: async () => {
      if (released) return;
      released = true;
      await supabase
        .rpc('release_stream', { p_lease: lease })
        .throwOnError()
        .then(noop, (error: unknown) => {
          // The lease expires by itself.
          console.error(`[${options.fn}] releasing a stream failed:`, error instanceof Error ? error.message : error);
        });
    },
  };
}

/** Adds what a request cost to today's spend; a failure is logged (the cap then counts a little low). */
export async function recordSpend(env: Record<string, string>, kind: SpendKind, amount: number): Promise<void> {
  const rounded = Math.max(0, Math.ceil(amount));
  if (rounded === 0) return;
  await serviceClient(env)
    .rpc('record_spend', { p_kind: kind, p_amount: rounded })
    .throwOnError()
    .then(noop, (error: unknown) => {
      console.error(`[guard] recording ${kind} failed:`, error instanceof Error ? error.message : error);
    });
}

/** Rough token count of a text when the model reports no usage: about four characters a token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
