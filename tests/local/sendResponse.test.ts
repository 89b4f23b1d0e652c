/**
 * The local stack's way of sending a function's answer: when the client has gone, the answer's
 * body is cancelled (as Supabase's runtime does), so a streamed reply ends, settles what it spent
 * and frees its slot, even when the client went before the function had its answer ready.
 */
import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendResponse } from '../../supabase/local/http';

const servers: ReturnType<typeof createServer>[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A body that yields a piece whenever it is pulled and records whether it was cancelled. */
function endlessBody() {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      seen.pulled += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      controller.enqueue(new Uint8Array(64 * 1024));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { body, seen };
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>) {
  const server = createServer((req, res) => void handler(req, res));
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/`;
}

describe('sendResponse', () => {
  it('cancels the body of an answer whose client went while the function was preparing it', async () => {
    const { body, seen } = endlessBody();
    const sending: { done?: Promise<void> } = {};
    const url = await serve(async (req, res) => {
      // The function is still searching and admitting when the visitor's page drops the request.
      await once(req.socket, 'close');
      sending.done = sendResponse(res, new Response(body), 'POST');
    });
    const client = httpRequest(url, { method: 'POST' });
    client.on('error', () => undefined);
    client.end();
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.destroy();
    await expect.poll(() => seen.cancelled).toBe(true);
    await expect.poll(() => sending.done !== undefined).toBe(true);
    await sending.done;
    expect(seen.pulled).toBeLessThanOrEqual(1);
  });

  it('cancels the body when the client goes mid-stream, and returns', async () => {
    const { body, seen } = endlessBody();
    const sending: { done?: Promise<void> } = {};
    const url = await serve(async (_req, res) => {
      sending.done = sendResponse(res, new Response(body), 'POST');
      await sending.done;
    });
    const client = httpRequest(url, { method: 'POST' });
    client.on('error', () => undefined);
    client.on('response', (response) => {
      // A reader that stops reading after the first piece and then goes (a closed tab).
      response.once('data', () => {
        response.pause();
        setTimeout(() => client.destroy(), 100);
      });
    });
    client.end();
    await expect.poll(() => seen.cancelled, { timeout: 5_000 }).toBe(true);
    await expect.poll(() => sending.done !== undefined).toBe(true);
    await sending.done;
  });
});
