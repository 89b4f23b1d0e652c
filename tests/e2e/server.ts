/**
 * What the end-to-end tests run against, started by playwright.config.ts: the built site (with the
 * production headers), the real local Supabase-compatible stack (in memory, fresh every run) and
 * the fake OpenAI and ElevenLabs servers the edge functions talk to. A small control endpoint lets
 * a test change the functions' environment (e.g. remove a provider key) and put it back, and add
 * (and remove) the starter knowledge base the way `npm start` adds it on a fresh data folder.
 *
 * Ports (env): E2E_PORT site (4179), SUPABASE_LOCAL_PORT stack (54321, must match the build),
 * FAKE_OPENAI_PORT (54391), FAKE_ELEVENLABS_PORT (54392), E2E_CONTROL_PORT (54390).
 */
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { clientOnlyPrefixes } from '../../src/config/routes';
import { configFromEnv } from '../../supabase/local/config';
import { startLocalStack } from '../../supabase/local/server';
import { createStaticServer } from '../../scripts/staticServer';
import { startFakeElevenLabs } from '../fixtures/fakeProviders/fakeElevenLabs';
import { startFakeOpenAI } from '../fixtures/fakeProviders/fakeOpenAI';
import { e2eEnv, functionEnvFor } from './env';
import { addStarterKnowledge, removeStarterKnowledge } from '../../scripts/starterKnowledge';

const dir = resolve(import.meta.dirname, '..', '..', process.env.DIST_DIR ?? 'dist');
if (!existsSync(join(dir, 'index.html'))) {
  console.error(`No build found in ${dir}. Run \`npm run build\` first.`);
  process.exit(1);
}

const openai = await startFakeOpenAI({ port: e2eEnv.fakeOpenAIPort, apiKey: e2eEnv.openaiKey });
const elevenLabs = await startFakeElevenLabs({ port: e2eEnv.fakeElevenLabsPort, apiKey: e2eEnv.elevenLabsKey });

const defaults = functionEnvFor(openai.url, elevenLabs.url);
const config = { ...configFromEnv({ SUPABASE_LOCAL_PORT: String(e2eEnv.stackPort) }), dataDir: null, functionEnv: { ...defaults } };
const stack = await startLocalStack(config);

// The functions host reads config.functionEnv on every request, so changing it here takes effect at once.
const control = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    if (request.method === 'POST' && request.url === '/starter') {
      // What `npm start` does on a fresh data folder: the starter knowledge base, added over HTTP.
      void addStarterKnowledge(stack.url, { dataDir: null }, {}).then(
        (result) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result)),
        (error: unknown) => response.writeHead(500).end(String(error)),
      );
      return;
    }
    if (request.method === 'POST' && request.url === '/starter/remove') {
      void removeStarterKnowledge(stack.url).then(
        () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
        (error: unknown) => response.writeHead(500).end(String(error)),
      );
      return;
    }
    if (request.method === 'POST' && request.url === '/env') {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { set?: Record<string, string>; unset?: string[] };
      for (const [key, value] of Object.entries(body.set ?? {})) config.functionEnv[key] = value;
      for (const key of body.unset ?? []) Reflect.deleteProperty(config.functionEnv, key);
    } else if (request.method === 'POST' && request.url === '/env/reset') {
      for (const key of Object.keys(config.functionEnv)) Reflect.deleteProperty(config.functionEnv, key);
      Object.assign(config.functionEnv, defaults);
    } else if (request.url !== '/health') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
  });
});
await new Promise<void>((done) => control.listen(e2eEnv.controlPort, '127.0.0.1', done));

const site = createStaticServer({ dir, clientOnlyPrefixes });
await new Promise<void>((done) => site.listen(e2eEnv.sitePort, '127.0.0.1', done));
console.log(`e2e: site http://127.0.0.1:${String(e2eEnv.sitePort)}, stack ${stack.url}, openai ${openai.url}, elevenlabs ${elevenLabs.url}`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  site.closeAllConnections();
  site.close();
  control.close();
  void Promise.all([stack.close(), openai.close(), elevenLabs.close()]).then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
