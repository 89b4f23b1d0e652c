/**
 * An admitted request's hold on spend (../_shared/guard.ts): one or more reservations of one kind,
 * taken from the same budgets, settled together with what the provider billed. Reserving more
 * serves a request that turns out to need more than admission could know, and a long stream that
 * reserves as it goes (seconds streamed, each chunk before it is sent); settling spreads the real
 * cost over the reservations in order, and what exceeds them all is added to the last one (the
 * provider billed it).
 */
import type { Json } from './database.types.ts';
import type { SpendKind } from './spendSettings.ts';
import type { ServiceClient } from './supabase.ts';

/** A budget a request is counted against: the client's, its network's or a visitor session's. */
export interface Budget {
  scope: 'client' | 'network' | 'session';
  key: string;
  budget: number;
}

/** A cap crossed for the first time today (the database reports each threshold once). */
export interface CapAlert {
  kind: SpendKind;
  thresholds: number[];
  amount: number;
  cap: number;
  clients: number;
}

export interface Spending {
  /**
   * Reserves `amount` more of the same kind; false, with nothing reserved, when a budget or the
   * cap does not allow it.
   */
  reserveMore(amount: number): Promise<boolean>;
  /** Replaces the reservations by what the request cost; only the first call counts. */
  settle(actual: number): Promise<void>;
}

/** What the guard's SQL functions answer (admit_request, reserve_spend). */
export interface GuardAnswer {
  allowed: boolean;
  reason?: string;
  scope?: string;
  retryAfter?: number;
  lease: string | null;
  reservation: string | null;
  alert: CapAlert | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function capAlert(value: unknown): CapAlert | null {
  if (!isRecord(value) || typeof value.kind !== 'string' || !Array.isArray(value.thresholds)) return null;
  const number = (field: unknown) => (typeof field === 'number' ? field : 0);
  return {
    kind: value.kind as SpendKind,
    thresholds: value.thresholds.filter((threshold): threshold is number => typeof threshold === 'number'),
    amount: number(value.amount),
    cap: number(value.cap),
    clients: number(value.clients),
  };
}

export function guardAnswer(value: unknown): GuardAnswer {
  if (!isRecord(value)) throw new Error('the guard returned no object');
  return {
    allowed: value.allowed === true,
    reason: typeof value.reason === 'string' ? value.reason : undefined,
    scope: typeof value.scope === 'string' ? value.scope : undefined,
    retryAfter: typeof value.retryAfter === 'number' ? value.retryAfter : undefined,
    lease: typeof value.lease === 'string' ? value.lease : null,
    reservation: typeof value.reservation === 'string' ? value.reservation : null,
    alert: capAlert(value.alert),
  };
}

const KIND_NAMES: Record<SpendKind, string> = {
  model_tokens: 'model tokens',
  tts_characters: 'TTS characters',
  stt_seconds: 'STT seconds',
  embedding_tokens: 'embedding tokens',
};

/**
 * Tells the operator, in the function's log, that a daily cap has reached a threshold: once per
 * day, kind and threshold for all instances together (the database records each one once).
 */
export function logCapAlert(fn: string, alert: CapAlert | null): void {
  if (!alert) return;
  const number = (value: number) => value.toLocaleString('en-US');
  for (const threshold of alert.thresholds) {
    const what = threshold >= 100 ? 'reached: visitors are refused until midnight (Europe/Berlin)' : `at ${String(threshold)} %`;
    console.warn(
      `[${fn}] daily cap of ${KIND_NAMES[alert.kind]} ${what}: ${number(alert.amount)} of ${number(alert.cap)} spent by ${number(alert.clients)} ${alert.clients === 1 ? 'client' : 'clients'} today`,
    );
  }
}

export const noop = () => Promise.resolve();

export const logFailure = (fn: string, what: string) => (error: unknown) => {
  console.error(`[${fn}] ${what} failed:`, error instanceof Error ? error.message : error);
};

/** Whole units: a fraction of a token, character or second is billed as a whole one. */
export const whole = (amount: number) => (Number.isFinite(amount) ? Math.max(0, Math.ceil(amount)) : 0);

/** The reservations of one kind taken from `budgets`, settled together. */
export function createSpending(
  supabase: ServiceClient,
  scope: { fn: string; kind: SpendKind; cap: number; budgets: readonly Budget[] },
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
          .rpc('reserve_spend', { p_kind: scope.kind, p_amount: wanted, p_cap: scope.cap, p_budgets: scope.budgets as unknown as Json })
          .throwOnError();
        const result = guardAnswer(data);
        logCapAlert(scope.fn, result.alert);
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
        // A failed settlement leaves the reservation counted at its maximum until it is released.
        await supabase.rpc('settle_spend', { p_reservation: reservation.id, p_amount: share }).throwOnError().then(noop, logFailure(scope.fn, 'settling'));
      }
    },
  };
}
