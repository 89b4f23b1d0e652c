/**
 * npm run bench:abuse — how much of the operator's money one client can spend by forging headers.
 *
 * Starts the local stack in memory on loopback with the fake providers, then fires requests at the
 * coach and at tts for ABUSE_SECONDS (5) with ABUSE_PARALLEL (4) at a time, each with a made-up
 * X-Forwarded-For, as an abuser rotating addresses would. It prints how many requests reached the
 * (fake) provider. The budget is the per-client limit (COACH_RATE_LIMIT 10 and TTS_RATE_LIMIT 20
 * here) per minute window the run touched; the script fails when more got through.
 *
 * Bounded and local only: nothing leaves 127.0.0.1, and it stops after ABUSE_SECONDS.
 */
import { LOCAL_ANON_KEY, configFromEnv } from '../supabase/local/config';
import { startLocalStack } from '../supabase/local/server';
import { startFakeElevenLabs } from '../tests/fixtures/fakeProviders/fakeElevenLabs';
import { startFakeOpenAI } from '../tests/fixtures/fakeProviders/fakeOpenAI';

const seconds = Math.min(60, Math.max(1, Number(process.env.ABUSE_SECONDS ?? 5)));
const parallel = Math.min(16, Math.max(1, Number(process.env.ABUSE_PARALLEL ?? 4)));
const limits = { coach: 10, tts: 20 };

interface Tally {
  sent: number;
  statuses: Map<number, number>;
}

async function hammer(url: string, body: unknown, until: number): Promise<Tally> {
  const tally: Tally = { sent: 0, statuses: new Map() };
  let n = 0;
  const worker = async () => {
    while (Date.now() < until) {
      n += 1;
      const forged = `10.${String((n >> 8) & 255)}.${String(n & 255)}.1`;
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${LOCAL_ANON_KEY}`,
          apikey: LOCAL_ANON_KEY,
          'content-type': 'application/json',
          'x-forwarded-for': forged,
          'x-real-ip': forged,
        },
        body: JSON.stringify(body),
      });
      await response.arrayBuffer();
      tally.sent += 1;
      tally.statuses.set(response.status, (tally.statuses.get(response.status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return tally;
}

/** Minute windows between two instants (the limits count per calendar minute). */
function minuteWindows(start: number, end: number): number {
  return Math.floor(end / 60_000) - Math.floor(start / 60_000) + 1;
}

async function main() {
  const [openai, elevenLabs] = await Promise.all([startFakeOpenAI({ host: '127.0.0.1' }), startFakeElevenLabs({ host: '127.0.0.1' })]);
  const stack = await startLocalStack({
    ...configFromEnv({}),
    host: '127.0.0.1',
    port: 0,
    dataDir: null,
    functionEnv: {
      OPENAI_API_KEY: 'sk-abuse-bench-fake',
      OPENAI_BASE_URL: openai.url,
      ELEVENLABS_API_KEY: 'abuse-bench-fake',
      ELEVENLABS_VOICE_ID: 'abuse-bench-voice',
      ELEVENLABS_BASE_URL: elevenLabs.url,
      COACH_RATE_LIMIT: String(limits.coach),
      TTS_RATE_LIMIT: String(limits.tts),
    },
  });
  let failed = false;
  try {
    const started = Date.now();
    const until = started + seconds * 1000;
    const [coach, tts] = await Promise.all([
      hammer(`${stack.url}/functions/v1/coach/chat/completions`, { messages: [{ role: 'user', content: 'Hallo' }] }, until),
      hammer(`${stack.url}/functions/v1/tts`, { text: 'Hallo.' }, until),
    ]);
    const windows = minuteWindows(started, Date.now());
    const rows = [
      { name: 'coach', tally: coach, reached: openai.requests().length, budget: limits.coach * windows },
      { name: 'tts', tally: tts, reached: elevenLabs.requests().length, budget: limits.tts * windows },
    ];
    console.log(`bench:abuse  ${String(seconds)} s, ${String(parallel)} in parallel per function, a forged X-Forwarded-For on every request`);
    for (const row of rows) {
      const statuses = [...row.tally.statuses].map(([status, count]) => `${String(status)}×${String(count)}`).join(' ');
      const ok = row.reached <= row.budget;
      failed ||= !ok;
      console.log(
        `${row.name.padEnd(6)} sent ${String(row.tally.sent).padStart(5)}  reached provider ${String(row.reached).padStart(4)}  budget ${String(row.budget).padStart(4)} (${String(windows)} minute window${windows === 1 ? '' : 's'})  [${statuses}]  ${ok ? 'ok' : 'OVER BUDGET'}`,
      );
    }
  } finally {
    await stack.close();
    await Promise.all([openai.close(), elevenLabs.close()]);
  }
  if (failed) process.exitCode = 1;
}

await main();
