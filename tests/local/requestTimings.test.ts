/**
 * The stack's `observeRequests` (bench:voice's BENCH_TIMELINE): every request is reported once its
 * response has been sent or cut off, with the moment the service answered apart from the moment
 * its last byte went out, so a streamed answer's start is not mistaken for its end.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_ANON_KEY, type RequestTiming } from '../../supabase/local/config';
import { startHarness, type Harness } from './harness';

const functionsDir = resolve(import.meta.dirname, '../fixtures/functions');
const timings: RequestTiming[] = [];
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ functionsDir, observeRequests: (timing) => timings.push(timing) });
});

afterAll(async () => {
  await harness.close();
});

const wallClock = () => performance.timeOrigin + performance.now();
const headers = { Authorization: `Bearer ${LOCAL_ANON_KEY}`, apikey: LOCAL_ANON_KEY };

/** Waits until the stack has reported a request to `path` received before `before`. */
async function reported(path: string, before = Number.POSITIVE_INFINITY): Promise<RequestTiming> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const timing = timings.find((entry) => entry.path === path && entry.receivedAt < before);
    if (timing) return timing;
    await new Promise((done) => setTimeout(done, 10));
  }
  throw new Error(`no timing for ${path}`);
}

describe('observeRequests', () => {
  it('reports a streamed answer as answered when it starts and finished when its last byte went out', async () => {
    const sent = wallClock();
    const response = await fetch(`${harness.url}/functions/v1/stream?first`, { headers });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    const firstEvent = wallClock();
    // Still streaming: nothing is reported before the response has been sent whole.
    expect(timings.find((entry) => entry.path === '/functions/v1/stream')).toBeUndefined();
    await new Promise((done) => setTimeout(done, 50));
    const released = wallClock();
    await fetch(`${harness.url}/functions/v1/stream?release`, { headers });
    while (!(await reader.read()).done);

    // The stream's request, not the one that released it.
    const timing = await reported('/functions/v1/stream', released);
    expect(timing).toMatchObject({ method: 'GET', status: 200, complete: true });
    expect(timing.receivedAt).toBeGreaterThanOrEqual(sent - 1);
    expect(timing.answeredAt).toBeGreaterThanOrEqual(timing.receivedAt);
    expect(timing.answeredAt).toBeLessThanOrEqual(firstEvent + 1);
    expect(timing.finishedAt).toBeGreaterThanOrEqual(released - 1);
  });

  it('reports a stream the client left before its end as cut off, when the connection closed', async () => {
    timings.length = 0;
    const controller = new AbortController();
    const response = await fetch(`${harness.url}/functions/v1/stream?cut`, { headers, signal: controller.signal });
    await (response.body as ReadableStream<Uint8Array>).getReader().read();
    const left = wallClock();
    controller.abort();
    const timing = await reported('/functions/v1/stream', left);
    expect(timing).toMatchObject({ status: 200, complete: false });
    expect(timing.finishedAt).toBeGreaterThanOrEqual(left - 1);
    // The function's stream still waits for its release; end it for what follows.
    await fetch(`${harness.url}/functions/v1/stream?release`, { headers });
  });

  it('reports every service, with its status and without the query', async () => {
    const response = await fetch(`${harness.url}/rest/v1/no_such_table?select=id`, { headers });
    expect(response.status).toBe(404);
    await response.text();
    const timing = await reported('/rest/v1/no_such_table');
    expect(timing).toMatchObject({ method: 'GET', status: 404 });
    expect(timing.finishedAt).toBeGreaterThanOrEqual(timing.answeredAt);
  });
});
