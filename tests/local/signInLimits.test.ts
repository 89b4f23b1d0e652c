/**
 * Failed password sign-ins are limited per client address and per e-mail address with GoTrue's
 * token limiter (burst 30, then 150 per 5 minutes) and its 429 body; successful sign-ins cost
 * nothing. Over real HTTP, each simulated client on its own loopback address.
 */
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ANON_KEY } from '../../supabase/local/config';
import { createTokenBuckets, SIGN_IN_BURST, SIGN_IN_RATE_PER_5_MINUTES } from '../../supabase/local/auth/signInLimits';
import { ADMIN, clientAt, startHarness, type Harness } from './harness';

const BURST = 5;
let harness: Harness;
const agents: { close: () => Promise<void> }[] = [];

beforeAll(async () => {
  // GoTrue's bucket shape, smaller: a burst of 5 and almost no refill, so the slow bcrypt checks
  // of a test cannot earn new attempts meanwhile (the defaults, 30 and 150, are the same code).
  harness = await startHarness({ signInRateLimit: { perFiveMinutes: 0.001, burst: BURST } });
  const { error } = await harness.service().auth.admin.createUser({
    email: 'editor@example.com',
    password: 'editor-password-1',
    email_confirm: true,
  });
  if (error) throw error;
});

afterAll(async () => {
  for (const agent of agents) await agent.close();
  await harness.close();
});

function from(address: string) {
  const client = clientAt(address);
  agents.push(client);
  return (email: string, password: string, headers: Record<string, string> = {}) =>
    client.fetch(`${harness.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: LOCAL_ANON_KEY, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email, password }),
    });
}

describe('failed password sign-ins', () => {
  it('are refused with GoTrue 429 body once an address has used its burst', async () => {
    const signIn = from('127.0.0.21');
    for (let attempt = 0; attempt < BURST; attempt += 1) {
      const response = await signIn(`guess-${String(attempt)}@example.com`, 'wrong-password');
      expect(response.status).toBe(400);
    }
    const refused = await signIn('another@example.com', 'wrong-password');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-sb-error-code')).toBe('over_request_rate_limit');
    expect(await refused.json()).toEqual({ code: 429, error_code: 'over_request_rate_limit', msg: 'Request rate limit reached' });

    // Even the right password is not checked from that address any more.
    const versioned = await signIn(ADMIN.email, ADMIN.password, { 'x-supabase-api-version': '2024-01-01' });
    expect(versioned.status).toBe(429);
    expect(await versioned.json()).toEqual({ code: 'over_request_rate_limit', message: 'Request rate limit reached' });

    // Another client is not affected.
    expect((await from('127.0.0.22')(ADMIN.email, ADMIN.password)).status).toBe(200);
  });

  it('are limited per e-mail address across client addresses', async () => {
    const target = 'editor@example.com';
    for (let attempt = 0; attempt < BURST; attempt += 1) {
      // Each guess from its own address, as a distributed guesser would.
      const response = await from(`127.0.1.${String(attempt + 1)}`)(target, `guess-${String(attempt)}`);
      expect(response.status).toBe(400);
    }
    const fresh = from('127.0.2.1');
    expect((await fresh(target, 'guess-x')).status).toBe(429);
    // The fresh address itself still signs in other users.
    expect((await fresh(ADMIN.email, ADMIN.password)).status).toBe(200);
  });

  it('never lock the owner out: an address the account signed in from meets only its own bucket', async () => {
    const { error } = await harness.service().auth.admin.createUser({ email: 'owner@example.com', password: 'owner-password-1', email_confirm: true });
    expect(error).toBeNull();
    const owner = from('127.0.3.1');
    expect((await owner('owner@example.com', 'owner-password-1')).status).toBe(200);
    for (let attempt = 0; attempt < BURST; attempt += 1) {
      // Someone else guesses from addresses of their own, until the e-mail's bucket is empty.
      expect((await from(`127.0.4.${String(attempt + 1)}`)('owner@example.com', `guess-${String(attempt)}`)).status).toBe(400);
    }
    // A new address is held back even with the right password: the guesser learns nothing there.
    expect((await from('127.0.4.99')('owner@example.com', 'owner-password-1')).status).toBe(429);
    // The owner's address is not: the right password signs in, a slip is an ordinary failure.
    expect((await owner('owner@example.com', 'owner-password-1')).status).toBe(200);
    expect((await owner('owner@example.com', 'owner-password-2')).status).toBe(400);
    expect((await owner('owner@example.com', 'owner-password-1')).status).toBe(200);
  });

  it('surface in supabase-js as an AuthApiError with status 429', async () => {
    const signIn = from('127.0.0.23');
    for (let attempt = 0; attempt < BURST; attempt += 1) await signIn('nobody@example.com', 'wrong');
    const client = clientAt('127.0.0.23');
    agents.push(client);
    const supabase = createClient(harness.url, LOCAL_ANON_KEY, {
      auth: { persistSession: false, autoRefreshToken: false },
      global: { fetch: client.fetch },
      realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
    });
    const { data, error } = await supabase.auth.signInWithPassword({ email: 'nobody@example.com', password: 'wrong' });
    expect(data.session).toBeNull();
    expect(error?.status).toBe(429);
    expect(error?.code).toBe('over_request_rate_limit');
    expect(error?.message).toBe('Request rate limit reached');
  });
});

describe('successful password sign-ins', () => {
  it('never use up the allowance', async () => {
    // The stack of this file refills almost nothing, so counted successes would be refused.
    const signIn = from('127.0.0.24');
    for (let attempt = 0; attempt < BURST + 3; attempt += 1) {
      expect((await signIn(ADMIN.email, ADMIN.password)).status).toBe(200);
    }
    // A failure afterwards is still an ordinary failure, not a refusal.
    expect((await signIn(ADMIN.email, 'wrong-password')).status).toBe(400);
  });
});

describe('token buckets', () => {
  it('refill at GoTrue rate of 150 per 5 minutes, up to the burst of 30', () => {
    expect([SIGN_IN_RATE_PER_5_MINUTES, SIGN_IN_BURST]).toEqual([150, 30]);
    let now = 0;
    const buckets = createTokenBuckets(SIGN_IN_RATE_PER_5_MINUTES / 300, SIGN_IN_BURST, () => now);
    for (let taken = 0; taken < 30; taken += 1) expect(buckets.take('a')).toBe(true);
    expect(buckets.take('a')).toBe(false);
    now += 1_999;
    expect(buckets.take('a')).toBe(false);
    now += 1;
    expect(buckets.take('a')).toBe(true);
    expect(buckets.take('a')).toBe(false);
    now += 3_600_000;
    for (let taken = 0; taken < 30; taken += 1) expect(buckets.take('a')).toBe(true);
    expect(buckets.take('a')).toBe(false);
    buckets.giveBack('a');
    expect(buckets.take('a')).toBe(true);
  });
});
