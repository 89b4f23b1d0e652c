/**
 * npm run bench:local — 20 concurrent clients doing the app's REST reads against the local stack
 * for 10 seconds (an in-memory stack started here, or BENCH_URL). Prints requests/s and latency
 * percentiles. Each client reads as the app does: the active voice settings (anon), and as an
 * admin the document list and the three counters.
 */
import { performance } from 'node:perf_hooks';
import { LOCAL_ANON_KEY, configFromEnv } from '../supabase/local/config';
import { startLocalStack } from '../supabase/local/server';

const clients = Number(process.env.BENCH_CLIENTS ?? 20);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);

async function signIn(url: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: LOCAL_ANON_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`Sign-in failed: ${response.status}`);
  return body.access_token;
}

async function main() {
  const config = { ...configFromEnv(), port: 0, dataDir: null };
  const stack = process.env.BENCH_URL ? null : await startLocalStack(config);
  const url = process.env.BENCH_URL ?? stack?.url ?? '';
  const adminToken = await signIn(url, config.adminEmail, config.adminPassword);
  const anon = { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${LOCAL_ANON_KEY}` };
  const admin = { apikey: LOCAL_ANON_KEY, authorization: `Bearer ${adminToken}` };
  const reads: { path: string; headers: Record<string, string>; method?: string }[] = [
    { path: '/rest/v1/voice_configs?select=*&is_active=eq.true', headers: anon },
    { path: '/rest/v1/documents?select=*&order=created_at.desc', headers: admin },
    { path: '/rest/v1/users?select=id', headers: { ...admin, prefer: 'count=exact' }, method: 'HEAD' },
    { path: '/rest/v1/conversations?select=id', headers: { ...admin, prefer: 'count=exact' }, method: 'HEAD' },
    { path: '/rest/v1/documents?select=id', headers: { ...admin, prefer: 'count=exact' }, method: 'HEAD' },
  ];

  const latencies: number[] = [];
  let failures = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = client; performance.now() < end; i++) {
        const read = reads[i % reads.length];
        if (!read) continue;
        const started = performance.now();
        const response = await fetch(`${url}${read.path}`, { method: read.method ?? 'GET', headers: read.headers });
        await response.arrayBuffer();
        latencies.push(performance.now() - started);
        if (!response.ok) failures++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  console.log(`${String(clients)} clients, ${String(seconds)} s: ${String(latencies.length)} requests, ${(latencies.length / seconds).toFixed(0)} req/s, ${String(failures)} failed`);
  console.log(`latency p50 ${at(50).toFixed(1)} ms, p99 ${at(99).toFixed(1)} ms`);
  await stack?.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
