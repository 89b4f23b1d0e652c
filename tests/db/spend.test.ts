/**
 * Spend reserved, then settled (supabase/migrations/…_usage_limits.sql, …_spend_scopes.sql):
 * admission reserves a request's largest cost against the client's daily budget, its network's,
 * its session's and the day's cap in one step, so a burst of admissions never adds up to more
 * than any of them, and settlement replaces the reservation by what was billed; a reservation
 * never settled is released after ten minutes. The bursts run as many concurrent calls of the
 * functions, each in its own transaction as PostgREST runs them.
 */
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { withClaims } from '../../supabase/local/database';
import { actors, allActors, attempt, freshDatabase, run } from './fixtures';

let db: PGlite;

beforeAll(async () => {
  db = await freshDatabase();
});

afterAll(async () => {
  await db.close();
});

beforeEach(async () => {
  await db.exec(`
    delete from public.daily_spend; delete from public.client_spend; delete from public.spend_reservations;
    delete from public.request_counts; delete from public.active_streams; delete from public.spend_alerts;
  `);
});

interface Admission {
  allowed: boolean;
  reason?: string;
  scope?: string;
  reservation?: string | null;
  lease?: string | null;
  alert?: { kind: string; thresholds: number[]; amount: number; cap: number; clients: number } | null;
}

interface Budget {
  scope: 'client' | 'network' | 'session';
  key: string;
  budget: number;
}

interface Limits {
  cap: number;
  budget: number;
  kind?: string;
  concurrent?: number;
  /** The client's network and its budget. */
  network?: { key: string; budget: number };
  /** The visitor's session and its budget. */
  session?: { key: string; budget: number };
}

function budgetsOf(client: string, limits: Limits): Budget[] {
  return [
    { scope: 'client', key: client, budget: limits.budget },
    ...(limits.network ? [{ scope: 'network' as const, ...limits.network }] : []),
    ...(limits.session ? [{ scope: 'session' as const, ...limits.session }] : []),
  ];
}

async function admit(client: string, amount: number, limits: Limits): Promise<Admission> {
  const [row] = await run<{ result: Admission }>(
    db,
    actors.service,
    `select public.admit_request('tts', $1, 10000, 100000, $2, 120, $3, $4, $5, $6::jsonb) as result`,
    [client, limits.concurrent ?? 0, limits.kind ?? 'tts_characters', amount, limits.cap, JSON.stringify(budgetsOf(client, limits))],
  );
  if (!row) throw new Error('admit_request returned nothing');
  return row.result;
}

async function settle(reservation: string | null | undefined, amount: number): Promise<number | null> {
  const [row] = await run<{ recorded: number | null }>(db, actors.service, 'select public.settle_spend($1, $2) as recorded', [reservation, amount]);
  return row?.recorded ?? null;
}

async function spent(kind = 'tts_characters'): Promise<{ day: number; clients: Record<string, number> }> {
  const day = await db.query<{ amount: string }>(`select amount::text from public.daily_spend where kind = $1`, [kind]);
  const clients = await db.query<{ client: string; amount: string }>(`select client, amount::text from public.client_spend where kind = $1`, [kind]);
  return { day: Number(day.rows[0]?.amount ?? 0), clients: Object.fromEntries(clients.rows.map((row) => [row.client, Number(row.amount)])) };
}

describe('reserving under concurrency', () => {
  it('admits a burst of one client only up to its budget', async () => {
    const results = await Promise.all(Array.from({ length: 50 }, () => admit('203.0.113.1', 5000, { cap: 100_000, budget: 12_000 })));
    expect(results.filter((result) => result.allowed)).toHaveLength(2);
    expect(results.filter((result) => !result.allowed).map((result) => result.reason)).toEqual(Array.from({ length: 48 }, () => 'budget'));
    expect(await spent()).toEqual({ day: 10_000, clients: { '203.0.113.1': 10_000 } });
  });

  it('admits a burst of many clients only up to the cap, and never one more', async () => {
    const results = await Promise.all(Array.from({ length: 60 }, (_, index) => admit(`198.51.100.${String(index)}`, 3000, { cap: 20_000, budget: 5000 })));
    const admitted = results.filter((result) => result.allowed);
    expect(admitted).toHaveLength(6);
    expect(new Set(results.filter((result) => !result.allowed).map((result) => result.reason))).toEqual(new Set(['spend_cap']));
    const now = await spent();
    expect(now.day).toBe(18_000);
    // A refused client keeps nothing reserved.
    expect(Object.values(now.clients).reduce((sum, amount) => sum + amount, 0)).toBe(18_000);
  });

  it('reserves nothing for a refused request, and a stream slot only for an admitted one', async () => {
    const first = await admit('192.0.2.7', 4000, { cap: 10_000, budget: 10_000, concurrent: 1 });
    expect(first).toMatchObject({ allowed: true });
    expect(first.lease).toEqual(expect.any(String));
    expect(await admit('192.0.2.7', 4000, { cap: 10_000, budget: 10_000, concurrent: 1 })).toMatchObject({ allowed: false, reason: 'concurrency' });
    expect(await admit('192.0.2.8', 7000, { cap: 10_000, budget: 10_000, concurrent: 1 })).toMatchObject({ allowed: false, reason: 'spend_cap' });
    expect((await db.query('select 1 from public.active_streams')).rows).toHaveLength(1);
    expect(await spent()).toEqual({ day: 4000, clients: { '192.0.2.7': 4000 } });
  });
});

describe('settling', () => {
  it('replaces the reservation by the real cost, once, in both rows', async () => {
    const admitted = await admit('203.0.113.9', 5000, { cap: 50_000, budget: 6000 });
    expect(await settle(admitted.reservation, 1234)).toBe(1234);
    expect(await spent()).toEqual({ day: 1234, clients: { '203.0.113.9': 1234 } });
    // Settling again, or something unknown, changes nothing.
    expect(await settle(admitted.reservation, 0)).toBeNull();
    expect(await settle('00000000-0000-4000-8000-000000000000', 99)).toBeNull();
    expect(await spent()).toEqual({ day: 1234, clients: { '203.0.113.9': 1234 } });
    // What was settled below the reservation is free again for the client.
    expect(await admit('203.0.113.9', 4766, { cap: 50_000, budget: 6000 })).toMatchObject({ allowed: true });
  });

  it('records more than reserved when the provider billed more, and refuses the client afterwards', async () => {
    const admitted = await admit('203.0.113.10', 100, { cap: 50_000, budget: 1000, kind: 'model_tokens' });
    await settle(admitted.reservation, 1500);
    expect(await spent('model_tokens')).toEqual({ day: 1500, clients: { '203.0.113.10': 1500 } });
    // A budget already used up refuses even a request that reserves nothing.
    expect(await admit('203.0.113.10', 0, { cap: 50_000, budget: 1000, kind: 'model_tokens' })).toMatchObject({ allowed: false, reason: 'budget' });
  });

  it('settles the reservation against its own day, even when that day is over', async () => {
    const admitted = await admit('203.0.113.11', 800, { cap: 50_000, budget: 1000 });
    await db.exec(`
      update public.spend_reservations set day = day - 1;
      update public.client_spend set day = day - 1;
      update public.daily_spend set day = day - 1;
    `);
    await settle(admitted.reservation, 300);
    const rows = await db.query<{ day: string; amount: string }>(`select (day = public.spend_day() - 1)::text as day, amount::text from public.daily_spend`);
    expect(rows.rows).toEqual([{ day: 'true', amount: '300' }]);
  });
});

describe('who may reserve and settle', () => {
  it('only the service role (the functions)', async () => {
    for (const actor of allActors) {
      const reserve = await attempt(db, actor, `select public.reserve_spend('tts_characters', 1, 10, '[{"scope":"client","key":"x","budget":10}]')`);
      const settled = await attempt(db, actor, `select public.settle_spend('00000000-0000-4000-8000-000000000000', 1)`);
      const admitted = await attempt(db, actor, `select public.admit_request('tts', 'x', 1, 1)`);
      const expected = actor.name === 'service_role';
      expect([reserve.ok, settled.ok, admitted.ok], actor.name).toEqual([expected, expected, expected]);
    }
  });
});

describe('requests per minute', () => {
  /**
   * One transaction, so the previous minute's row and the admission see the same now(): the
   * previous count is chosen from how much of the previous minute is still inside the window, so
   * the outcome does not depend on when in the minute the test runs.
   */
  async function admitAfter(client: string, carried: number): Promise<Admission> {
    return withClaims(db, actors.service.claims, actors.service.role, async (tx) => {
      const share = await tx.query<{ remaining: number }>(
        `select 1 - extract(epoch from now() - date_trunc('minute', now()))::float8 / 60 as remaining`,
      );
      const remaining = share.rows[0]?.remaining ?? 1;
      const previous = carried >= 3.5 ? Math.ceil(carried / remaining) : Math.floor(carried / remaining);
      await tx.query(
        `insert into public.request_counts (fn, client, window_kind, window_start, count)
         values ('coach', $1, 'minute', date_trunc('minute', now()) - interval '1 minute', $2)`,
        [client, previous],
      );
      const result = await tx.query<{ result: Admission }>(`select public.admit_request('coach', $1, 4, 1000) as result`, [client]);
      const admission = result.rows[0]?.result;
      if (!admission) throw new Error('admit_request returned nothing');
      return admission;
    });
  }

  it('counts the part of the previous minute still inside the last 60 seconds', async () => {
    // Limit 4: the first request of this minute plus 3.5 carried is over it, plus 2.5 is not.
    expect(await admitAfter('192.0.2.20', 3.5)).toMatchObject({ allowed: false, reason: 'rate_minute' });
    expect(await admitAfter('192.0.2.21', 2.5)).toMatchObject({ allowed: true });
  });

  it('tells how long until one more request fits', async () => {
    const retry = async (count: number, previous: number, elapsed: number) => {
      const [row] = await run<{ seconds: number }>(db, actors.service, 'select private.minute_retry_after($1, $2, $3, 4) as seconds', [count, previous, elapsed]);
      return row?.seconds;
    };
    // 1 this minute, 8 in the previous one, 30 s in: at 45 s, 2 + 8 × 0.25 = 4 fits.
    expect(await retry(1, 8, 30)).toBe(15);
    // 5 this minute, 10 s in: next minute at 24 s, 1 + 5 × 0.6 = 4 fits.
    expect(await retry(5, 0, 10)).toBe(74);
    expect(await retry(4, 0, 59.5)).toBeGreaterThanOrEqual(1);
  });
});

describe('networks and sessions', () => {
  it('stops the addresses of one network at the network budget, while another network is served', async () => {
    // 25 addresses of one /24, each with a budget of 5 % of a 100,000 cap and the network 20 %.
    const limits: Limits = { cap: 100_000, budget: 5000, network: { key: '198.51.100.0/24', budget: 20_000 } };
    const results: Admission[] = [];
    for (let index = 0; index < 25; index += 1) results.push(await admit(`198.51.100.${String(index + 1)}`, 2000, limits));
    expect(results.filter((result) => result.allowed)).toHaveLength(10);
    expect(results.filter((result) => !result.allowed).map((result) => [result.reason, result.scope])).toEqual(
      Array.from({ length: 15 }, () => ['budget', 'network']),
    );
    const now = await spent();
    expect(now.day).toBe(20_000);
    expect(now.clients['198.51.100.0/24']).toBe(20_000);
    // A refused address keeps nothing reserved: the ten admitted hold 2,000 each, the network their sum.
    expect(Object.entries(now.clients).filter(([key]) => !key.includes('/')).reduce((sum, [, amount]) => sum + amount, 0)).toBe(20_000);
    expect(await admit('203.0.113.9', 2000, { cap: 100_000, budget: 5000, network: { key: '203.0.113.0/24', budget: 20_000 } })).toMatchObject({
      allowed: true,
    });
  });

  it('holds a network to its budget under a burst of many addresses, and settles every budget', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        admit(`192.0.2.${String(index + 1)}`, 1000, { cap: 100_000, budget: 5000, network: { key: '192.0.2.0/24', budget: 7000 } }),
      ),
    );
    const admitted = results.filter((result) => result.allowed);
    expect(admitted).toHaveLength(7);
    expect((await spent()).clients['192.0.2.0/24']).toBe(7000);
    await settle(admitted[0]?.reservation, 400);
    const after = await spent();
    expect(after.day).toBe(6400);
    expect(after.clients['192.0.2.0/24']).toBe(6400);
  });

  it('stops one session at its budget however many addresses it uses', async () => {
    const session = { key: 'session:00000000-0000-4000-8000-00000000c001', budget: 3000 };
    const statuses: boolean[] = [];
    for (let index = 0; index < 5; index += 1) {
      const admission = await admit(`2001:db8:${String(index + 1)}:1::/64`, 1000, {
        cap: 100_000,
        budget: 5000,
        network: { key: `2001:db8:${String(index + 1)}::/48`, budget: 20_000 },
        session,
      });
      statuses.push(admission.allowed);
      if (!admission.allowed) expect(admission).toMatchObject({ reason: 'budget', scope: 'session' });
    }
    expect(statuses).toEqual([true, true, true, false, false]);
    const scopes = await db.query<{ client: string; scope: string }>(`select client, scope from public.client_spend order by client`);
    expect(scopes.rows.filter((row) => row.scope === 'session')).toEqual([{ client: session.key, scope: 'session' }]);
    expect(scopes.rows.filter((row) => row.scope === 'network')).toHaveLength(3);
  });

  it('refuses at once, before counting the request, when a network budget is already used up', async () => {
    const limits = { cap: 100_000, budget: 5000, network: { key: '198.51.100.0/24', budget: 1000 } };
    expect(await admit('198.51.100.7', 1000, limits)).toMatchObject({ allowed: true });
    expect(await admit('198.51.100.8', 0, limits)).toMatchObject({ allowed: false, reason: 'budget', scope: 'network' });
  });
});

describe('reservations end', () => {
  it('releases a reservation left open for ten minutes on the next reservation of its kind', async () => {
    const left = await admit('203.0.113.20', 4000, { cap: 10_000, budget: 5000, network: { key: '203.0.113.0/24', budget: 10_000 } });
    expect(left.allowed).toBe(true);
    // The instance that took it died: nine minutes later it still counts …
    await db.exec(`update public.spend_reservations set created_at = now() - interval '9 minutes'`);
    expect(await admit('203.0.113.20', 2000, { cap: 10_000, budget: 5000 })).toMatchObject({ allowed: false, reason: 'budget', scope: 'client' });
    // … eleven minutes later it is given back to the day, the client and its network.
    await db.exec(`update public.spend_reservations set created_at = now() - interval '11 minutes' where amount = 4000`);
    const next = await admit('203.0.113.20', 2000, { cap: 10_000, budget: 5000, network: { key: '203.0.113.0/24', budget: 10_000 } });
    expect(next).toMatchObject({ allowed: true });
    expect(await spent()).toEqual({ day: 2000, clients: { '203.0.113.20': 2000, '203.0.113.0/24': 2000 } });
    // Settling the released reservation late changes nothing.
    expect(await settle(left.reservation, 4000)).toBeNull();
    expect((await spent()).day).toBe(2000);
  });

  it('releases it before judging the request by it: a budget held whole by a dead instance is free again', async () => {
    expect(await admit('203.0.113.22', 5000, { cap: 10_000, budget: 5000 })).toMatchObject({ allowed: true });
    expect(await admit('203.0.113.22', 0, { cap: 10_000, budget: 5000 })).toMatchObject({ allowed: false, reason: 'budget' });
    await db.exec(`update public.spend_reservations set created_at = now() - interval '11 minutes'`);
    expect(await admit('203.0.113.22', 100, { cap: 10_000, budget: 5000 })).toMatchObject({ allowed: true });
  });

  it('keeps a reservation of another kind until one of its own kind is reserved', async () => {
    await admit('203.0.113.21', 100, { cap: 10_000, budget: 5000, kind: 'stt_seconds' });
    await db.exec(`update public.spend_reservations set created_at = now() - interval '11 minutes'`);
    await admit('203.0.113.21', 100, { cap: 10_000, budget: 5000, kind: 'tts_characters' });
    expect((await spent('stt_seconds')).day).toBe(100);
    await admit('203.0.113.21', 10, { cap: 10_000, budget: 5000, kind: 'stt_seconds' });
    expect((await spent('stt_seconds')).day).toBe(10);
  });
});

describe('the operator hears of it', () => {
  it('raises 80 % once with what was spent and by how many clients, and 100 % when a request is refused for the cap', async () => {
    const limits = { cap: 10_000, budget: 10_000 };
    expect((await admit('192.0.2.1', 4000, limits)).alert).toBeNull();
    const crossing = await admit('192.0.2.2', 4000, limits);
    expect(crossing.alert).toEqual({ kind: 'tts_characters', thresholds: [80], amount: 8000, cap: 10_000, clients: 2 });
    expect((await admit('192.0.2.3', 1000, limits)).alert).toBeNull();
    const refused = await admit('192.0.2.4', 2000, limits);
    expect(refused).toMatchObject({ allowed: false, reason: 'spend_cap' });
    expect(refused.alert).toEqual({ kind: 'tts_characters', thresholds: [100], amount: 9000, cap: 10_000, clients: 3 });
    expect((await admit('192.0.2.5', 2000, limits)).alert).toBeNull();
    const alerts = await db.query<{ threshold: number; amount: string; clients: number }>(
      `select threshold, amount::text, clients from public.spend_alerts order by threshold`,
    );
    expect(alerts.rows).toEqual([
      { threshold: 80, amount: '8000', clients: 2 },
      { threshold: 100, amount: '9000', clients: 3 },
    ]);
  });

  it('reports both thresholds at once when one request takes the day from below 80 % to the cap', async () => {
    expect((await admit('192.0.2.9', 10_000, { cap: 10_000, budget: 10_000 })).alert).toMatchObject({ thresholds: [80, 100] });
  });

  it('shows today in usage_today: each kind, the clients that spent it and the alerts', async () => {
    await admit('192.0.2.1', 900, { cap: 1000, budget: 1000, kind: 'embedding_tokens' });
    await admit('192.0.2.1', 300, { cap: 1000, budget: 1000, kind: 'stt_seconds', network: { key: '192.0.2.0/24', budget: 1000 } });
    await admit('192.0.2.2', 300, { cap: 1000, budget: 1000, kind: 'stt_seconds', network: { key: '192.0.2.0/24', budget: 1000 } });
    const [row] = await run<{ usage: Record<string, unknown> }>(db, actors.service, 'select public.usage_today() as usage');
    expect(row?.usage).toMatchObject({
      modelTokens: 0,
      sttSeconds: 600,
      embeddingTokens: 900,
      clients: { modelTokens: 0, ttsCharacters: 0, sttSeconds: 2 },
      alerts: [{ kind: 'embedding_tokens', threshold: 80, amount: 900, cap: 1000, clients: 1 }],
    });
  });
});

describe('embeddings on a cap of their own', () => {
  it('counts embedding tokens apart from the model tokens', async () => {
    expect(await admit('admins:embed', 5000, { cap: 5000, budget: 5000, kind: 'embedding_tokens' })).toMatchObject({ allowed: true });
    expect(await admit('192.0.2.30', 5000, { cap: 5000, budget: 5000, kind: 'model_tokens' })).toMatchObject({ allowed: true });
    expect((await spent('embedding_tokens')).day).toBe(5000);
    expect((await spent('model_tokens')).day).toBe(5000);
  });
});
