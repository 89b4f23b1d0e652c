/**
 * The edge functions under real Deno, as Supabase runs them: `deno check` of every
 * `supabase/functions/<name>/index.ts`, then each entry served by Deno (`Deno.serve`) and asked
 * once against the real local stack. The Deno binary comes from the npm package
 * `@deno/linux-x64-glibc`; elsewhere these tests are skipped with a message saying why.
 * Everything runs offline: the functions' `deno.json` maps `@supabase/supabase-js` to its npm
 * package, which Deno takes from the repo's node_modules (`--node-modules-dir=manual`, as `npm ci`
 * installed it); nothing is downloaded (`--cached-only` with an empty DENO_DIR, no remote
 * imports), no lock file, no update check.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { persona } from '../../supabase/functions/_shared/persona';
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '../../supabase/local/config';
import WebSocket from 'ws';
import { audioFor, startFakeElevenLabs, voicedPcm, type FakeElevenLabs } from '../fixtures/fakeProviders/fakeElevenLabs';
import { ADMIN, startHarness, type Harness } from './harness';

const root = resolve(import.meta.dirname, '..', '..');
const functionsDir = join(root, 'supabase', 'functions');
const denoBinary = join(root, 'node_modules', '@deno', 'linux-x64-glibc', 'deno');
const supported = process.platform === 'linux' && process.arch === 'x64' && existsSync(denoBinary);
const entries = readdirSync(functionsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(functionsDir, entry.name, 'index.ts')))
  .map((entry) => entry.name)
  .sort();

const denoConfig = join(functionsDir, 'deno.json');
/**
 * No network for Deno itself: nothing to download, nothing to look up. The npm package comes from
 * node_modules; on Supabase the same deno.json without this flag fetches it from npm.
 */
const offlineFlags = ['--no-remote', '--cached-only', '--no-lock', '--config', denoConfig, '--node-modules-dir=manual'];
const ELEVENLABS_KEY = 'sk_fake-elevenlabs-deno-0123456789abcdef';
const denoDir = mkdtempSync(join(tmpdir(), 'deno-dir-'));
const denoEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), DENO_DIR: denoDir, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };

interface Served {
  url: string;
  process: ChildProcess;
  /** What the function has written to stdout and stderr so far. */
  output: () => string;
}

/** Serves one function's Deno entry on a free loopback port with the environment Supabase gives it. */
function serve(name: string, env: Record<string, string>): Promise<Served> {
  const child = spawn(
    denoBinary,
    ['run', ...offlineFlags, '--allow-net=127.0.0.1', '--allow-env', join(functionsDir, name, 'index.ts')],
    { env: { ...denoEnv, ...env, DENO_SERVE_ADDRESS: 'tcp:127.0.0.1:0' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolvePromise, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /Listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (match?.[1]) resolvePromise({ url: match[1], process: child, output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`deno exited (${String(code)}) before listening:\n${output}`)));
  });
}

function stop(served: Served): Promise<void> {
  return new Promise((resolvePromise) => {
    if (served.process.exitCode !== null) {
      resolvePromise();
      return;
    }
    served.process.once('exit', () => resolvePromise());
    served.process.kill('SIGTERM');
  });
}

describe('the functions\' Deno configuration', () => {
  const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const denoJson = JSON.parse(readFileSync(denoConfig, 'utf8')) as { imports: Record<string, string> };

  it('maps @supabase/supabase-js to the exact version the app and the local stack use', () => {
    // Deno takes the package from node_modules only when the versions agree, and a deployed
    // function should run the version the tests ran.
    expect(denoJson.imports).toEqual({ '@supabase/supabase-js': `npm:@supabase/supabase-js@${packageJson.dependencies['@supabase/supabase-js'] ?? ''}` });
  });

  it('is the import map of every function in config.toml', () => {
    const toml = readFileSync(join(root, 'supabase', 'config.toml'), 'utf8');
    const importMaps = [...toml.matchAll(/^\[functions\.([a-z-]+)\][^[]*?^import_map = "([^"]+)"$/gmu)].map(([, name, path]) => [name, path])
      .sort(([a = ''], [b = '']) => a.localeCompare(b));
    expect(importMaps).toEqual(entries.map((name) => [name, './functions/deno.json']));
  });
});

if (!supported) {
  describe('edge functions under Deno', () => {
    it.skip(`skipped: the Deno binary of @deno/linux-x64-glibc runs on Linux x64 (glibc) only; this is ${process.platform}-${process.arch}`, () => undefined);
  });
} else {
  describe('edge functions under Deno', () => {
    let harness: Harness;
    let elevenLabs: FakeElevenLabs;
    let adminToken: string;
    const running: Served[] = [];

    // The test stands in for the gateway: it names the client in the header CLIENT_IP_HEADER says.
    const functionEnv = () => ({
      SUPABASE_URL: harness.url,
      SUPABASE_ANON_KEY: LOCAL_ANON_KEY,
      SUPABASE_SERVICE_ROLE_KEY: LOCAL_SERVICE_ROLE_KEY,
      CLIENT_IP_HEADER: 'cf-connecting-ip',
    });
    const gateway = { 'cf-connecting-ip': '203.0.113.77' };

    async function servedWith(name: string, env: Record<string, string>): Promise<Served> {
      const server = await serve(name, env);
      running.push(server);
      return server;
    }

    async function served(name: string, extraEnv: Record<string, string> = {}): Promise<string> {
      return (await servedWith(name, { ...functionEnv(), ...extraEnv })).url;
    }

    beforeAll(async () => {
      harness = await startHarness();
      elevenLabs = await startFakeElevenLabs({ apiKey: ELEVENLABS_KEY });
      const client = await harness.signedIn(ADMIN.email, ADMIN.password);
      const { data } = await client.auth.getSession();
      adminToken = data.session?.access_token ?? '';
    });

    afterAll(async () => {
      await Promise.all(running.map(stop));
      await harness.close();
      await elevenLabs.close();
      rmSync(denoDir, { recursive: true, force: true });
    });

    it('finds the functions', () => {
      expect(entries).toEqual(['coach', 'embed', 'stt', 'stt-stream', 'system-settings', 'tts']);
    });

    it('type-checks every entry with deno check', { timeout: 120_000 }, async () => {
      const files = entries.map((name) => join(functionsDir, name, 'index.ts'));
      const { stderr } = await promisify(execFile)(denoBinary, ['check', ...offlineFlags, ...files], { env: denoEnv, cwd: root });
      for (const name of entries) expect(stderr).toContain(`Check ${join(functionsDir, name, 'index.ts')}`.replace(`${root}/`, ''));
    });

    it('coach: answers a chat request from the knowledge base (no OpenAI key), as under the local stack', { timeout: 60_000 }, async () => {
      const url = await served('coach');
      const request = { model: 'coach', stream: false, messages: [{ role: 'user', content: 'Hallo, wie atme ich ruhiger?' }] };
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${LOCAL_ANON_KEY}`, apikey: LOCAL_ANON_KEY, ...gateway };
      const underDeno = await fetch(`${url}/coach/chat/completions`, { method: 'POST', headers, body: JSON.stringify(request) });
      expect(underDeno.status).toBe(200);
      expect(underDeno.headers.get('x-coach-mode')).toBe('offline');
      const body = (await underDeno.json()) as { object?: string; choices?: { message?: { content?: string } }[] };
      expect(body.object).toBe('chat.completion');
      expect(body.choices?.[0]?.message?.content).toEqual(expect.any(String));
      // The conversation was recorded in the local stack through the service key.
      const conversationId = (underDeno.headers.get('x-conversation-id') ?? '').split('.')[0] ?? '';
      const { data } = await harness.service().from('conversations').select('id').eq('id', conversationId);
      expect(data).toEqual([{ id: conversationId }]);
    });

    it('system-settings: tells an admin the key status and refuses a visitor', { timeout: 60_000 }, async () => {
      const url = await served('system-settings');
      const visitor = await fetch(`${url}/system-settings`, { headers: { authorization: `Bearer ${LOCAL_ANON_KEY}` } });
      expect(visitor.status).toBe(403);
      const admin = await fetch(`${url}/system-settings`, { headers: { authorization: `Bearer ${adminToken}` } });
      expect(admin.status).toBe(200);
      const viaStack = await fetch(`${harness.url}/functions/v1/system-settings`, { headers: { authorization: `Bearer ${adminToken}` } });
      expect(await admin.json()).toEqual(await viaStack.json());
    });

    it('embed: counts the passages waiting for an embedding for an admin, and refuses a visitor', { timeout: 60_000 }, async () => {
      const url = await served('embed');
      const visitor = await fetch(`${url}/embed`, { headers: { authorization: `Bearer ${LOCAL_ANON_KEY}` } });
      expect(visitor.status).toBe(403);
      const admin = await fetch(`${url}/embed`, { headers: { authorization: `Bearer ${adminToken}` } });
      expect(admin.status).toBe(200);
      const viaStack = await fetch(`${harness.url}/functions/v1/embed`, { headers: { authorization: `Bearer ${adminToken}` } });
      expect(await admin.json()).toEqual(await viaStack.json());
    });

    it('tts: answers as the local stack does without an ElevenLabs key', { timeout: 60_000 }, async () => {
      const url = await served('tts');
      const init = () => ({
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${LOCAL_ANON_KEY}`, apikey: LOCAL_ANON_KEY, ...gateway },
        body: JSON.stringify({ text: 'Hallo' }),
      });
      const underDeno = await fetch(`${url}/tts`, init());
      const viaStack = await fetch(`${harness.url}/functions/v1/tts`, init());
      expect(underDeno.status).toBe(viaStack.status);
      expect(await underDeno.json()).toEqual(await viaStack.json());
    });

    it('tts with a voice: honours only an admin\'s override and stores the greeting in the cache bucket', { timeout: 60_000 }, async () => {
      const url = await served('tts', { ELEVENLABS_API_KEY: ELEVENLABS_KEY, ELEVENLABS_VOICE_ID: 'voice-deno', ELEVENLABS_BASE_URL: elevenLabs.url });
      const speak = (body: unknown, token = LOCAL_ANON_KEY) =>
        fetch(`${url}/tts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, apikey: LOCAL_ANON_KEY, ...gateway },
          body: JSON.stringify(body),
        });
      const sample = { stability: 0.1, similarity_boost: 0.2, style: 0.3, use_speaker_boost: false, speed: 1, pitch: 0.5 };

      // The caller's token goes to GoTrue (auth.getUser): an admin's slider values count...
      const byAdmin = await speak({ text: 'Probehören.', voiceSettings: sample }, adminToken);
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.headers.get('x-pitch')).toBe('0.5');
      // ...a visitor's do not: the active voice_configs row is read instead.
      const byVisitor = await speak({ text: 'Überschrieben?', voiceSettings: sample });
      expect(byVisitor.status).toBe(200);
      expect(byVisitor.headers.get('x-pitch')).toBe('1');
      expect(elevenLabs.requests().map((request) => request.body)).toMatchObject([
        { voice_settings: { stability: 0.1 } },
        { voice_settings: { stability: 0.25 } },
      ]);

      // Only the persona's greeting is ever cached.
      const greeting = persona.greeting;
      const first = await speak({ text: greeting, cache: true });
      expect(first.headers.get('x-tts-cache')).toBe('miss');
      expect(new Uint8Array(await first.arrayBuffer())).toEqual(audioFor(greeting));
      const stored = await harness.service().storage.from('tts-cache').list();
      expect(stored.data?.map((entry) => entry.name)).toEqual([expect.stringMatching(/^[0-9a-f]{64}\.mp3$/) as string]);
      const second = await speak({ text: greeting, cache: true });
      expect(second.headers.get('x-tts-cache')).toBe('hit');
      expect(new Uint8Array(await second.arrayBuffer())).toEqual(audioFor(greeting));
      expect(elevenLabs.requests()).toHaveLength(3);
    });

    it('system-settings: reads today\'s usage and empties the tts cache bucket, as under the local stack', { timeout: 60_000 }, async () => {
      const url = await served('system-settings');
      const init = (method = 'GET') => ({ method, headers: { authorization: `Bearer ${adminToken}` } });
      const usage = await fetch(`${url}/system-settings/usage`, init());
      expect(usage.status).toBe(200);
      expect(await usage.json()).toEqual(await (await fetch(`${harness.url}/functions/v1/system-settings/usage`, init())).json());

      await harness.service().storage.from('tts-cache').upload('deno-check.mp3', new Uint8Array([1, 2, 3]), { contentType: 'audio/mpeg' });
      const before = (await harness.service().storage.from('tts-cache').list()).data?.length ?? 0;
      expect(before).toBeGreaterThan(0);
      const cleared = await fetch(`${url}/system-settings/clear-tts-cache`, init('POST'));
      expect(cleared.status).toBe(200);
      expect(await cleared.json()).toEqual({ removed: before });
      expect((await harness.service().storage.from('tts-cache').list()).data).toEqual([]);
    });

    it('stt-stream: relays a streamed turn through Deno.upgradeWebSocket and Deno\'s WebSocket, as under the local stack', { timeout: 60_000 }, async () => {
      const url = await served('stt-stream', { ELEVENLABS_API_KEY: ELEVENLABS_KEY, ELEVENLABS_BASE_URL: elevenLabs.url });
      elevenLabs.reset();
      const capability = await fetch(`${url}/stt-stream`);
      expect(await capability.json()).toEqual({ available: true, everyBrowser: false });

      // The gateway's header, which names the client for the guard.
      const ws = new WebSocket(`${url.replace(/^http/u, 'ws')}/stt-stream?jwt=${LOCAL_ANON_KEY}`, { headers: gateway });
      const messages: { type?: string; text?: string }[] = [];
      const final = new Promise<void>((resolvePromise) => {
        ws.on('message', (data) => {
          const message = JSON.parse(Buffer.from(data as Buffer).toString('utf8')) as { type?: string };
          messages.push(message);
          if (message.type === 'final') resolvePromise();
        });
      });
      const closed = new Promise<number>((resolvePromise) => ws.on('close', (code) => resolvePromise(code)));
      await new Promise((resolvePromise, reject) => {
        ws.once('open', resolvePromise);
        ws.once('error', reject);
      });
      const pcm = Buffer.concat([voicedPcm(1, 16_000), new Uint8Array(6_400)]);
      for (let offset = 0; offset < pcm.length; offset += 640) ws.send(pcm.subarray(offset, offset + 640));
      ws.send(JSON.stringify({ type: 'commit' }));
      await final;
      ws.close(1000);
      expect(await closed).toBe(1000);
      expect(messages.filter((message) => message.type !== 'partial')).toEqual([
        { type: 'ready' },
        { type: 'final', text: 'Ich bin gestresst, was kann ich tun?' },
      ]);
      expect(elevenLabs.streams()).toMatchObject([{ auth: 'token', accepted: true, audioBytes: pcm.length, audioBeforeSession: 0, commits: 1 }]);
      // Settled as the bytes sent on: 1.2 s → 2 whole seconds, once the stream's reservation is gone.
      for (let waited = 0; waited < 5_000; waited += 50) {
        const open = await harness.stack.db.query<{ count: number }>('select count(*)::int as count from public.spend_reservations');
        if (open.rows[0]?.count === 0) break;
        await new Promise((resolvePromise) => setTimeout(resolvePromise, 50));
      }
      const spent = await harness.stack.db.query<{ seconds: number }>(
        "select coalesce(sum(amount), 0)::int as seconds from public.daily_spend where kind = 'stt_seconds'",
      );
      expect(spent.rows[0]?.seconds).toBe(2);
    });

    it('refuses a spending request without the client header, off the local stack, and says once which setting to check', { timeout: 60_000 }, async () => {
      const server = await servedWith('coach', { ...functionEnv(), CLIENT_IP_HEADER: '' });
      const ask = () =>
        fetch(`${server.url}/coach/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${LOCAL_ANON_KEY}`, 'x-forwarded-for': '198.51.100.9' },
          body: JSON.stringify({ messages: [{ role: 'user', content: 'Hallo' }] }),
        });
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const refused = await ask();
        expect(refused.status).toBe(503);
        expect(await refused.json()).toEqual({ error: { message: 'Es gab ein Problem bei der Verarbeitung.', code: 'client_unidentified' } });
      }
      const named = server.output().split('\n').filter((line) => line.includes('CLIENT_IP_HEADER'));
      expect(named).toHaveLength(1);
      expect(named[0]).toContain('cf-connecting-ip');
      // Nothing was counted for them.
      const { data } = await harness.service().from('request_counts').select('client').eq('fn', 'coach');
      expect((data ?? []).map((row) => row.client)).not.toContain('198.51.100.9');
    });

    it('stt: says whether transcription is available, as the local stack does', { timeout: 60_000 }, async () => {
      const url = await served('stt');
      const init = () => ({ headers: { authorization: `Bearer ${LOCAL_ANON_KEY}`, apikey: LOCAL_ANON_KEY } });
      const underDeno = await fetch(`${url}/stt`, init());
      const viaStack = await fetch(`${harness.url}/functions/v1/stt`, init());
      expect(underDeno.status).toBe(200);
      expect(await underDeno.json()).toEqual(await viaStack.json());
    });
  });
}
