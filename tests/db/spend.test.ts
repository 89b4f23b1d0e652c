/**
 * Spend reserved, then settled (supabase/migrations/…_usage_limits.sql): admission
 * reserves a request's largest cost against the client's daily budget and the day's cap in one
 * step, so a burst of admissions never adds up to more than either, and settlement replaces the
 * reservation by what was billed. The bursts run as many concurrent calls of the functions, each
 * in its own transaction as PostgREST runs them.
 */
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

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
    delete from public.request_counts; delete from public.active_streams;
  `);
});

interface Admission {
  allowed: boolean;
  reason?: string;
  reservation?: string | null;
  lease?: string | null;
}

async function admit(client: string, amount: number, limits: { cap: number; budget: number; kind?: string; concurrent?: number }): Promise<Admission> {
  const [row] = await run<{ result: Admission }>(
    db,
    actors.service,
    `select public.admit_request('tts', $1, 10000, 100000, $2, 120, $3, $4, $5, $6) as result`,
    [client, limits.concurrent ?? 0, limits.kind ?? 'tts_characters', amount, limits.cap, limits.budget],
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
      const reserve = await attempt(db, actor, `select public.reserve_spend('x', 'tts_characters', 1, 10, 10)`);
      const settled = await attempt(db, actor, `select public.settle_spend('00000000-0000-4000-8000-000000000000', 1)`);
      const admitted = await attempt(db, actor, `select public.admit_request('tts', 'x', 1, 1)`);
      const expected = actor.name === 'service_role';
      expect([reserve.ok, settled.ok, admitted.ok], actor.name).toEqual([expected, expected, expected]);
    }
  });
});
