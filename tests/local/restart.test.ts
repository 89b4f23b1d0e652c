import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import type { Database } from '../../src/types/database';
import { LOCAL_ANON_KEY } from '../../supabase/local/config';
import { runLocalStack } from '../../supabase/local/main';
import { hashPassword } from '../../supabase/local/passwords';
import { startLocalStack } from '../../supabase/local/server';
import { ADMIN, testConfig } from './harness';

const workDir = mkdtempSync(join(tmpdir(), 'supabase-local-restart-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/**
 * A data folder the stack has set up from scratch and closed (every migration: seconds), set up
 * once; each test starts from a copy of its own.
 */
const fresh = join(workDir, 'fresh');
beforeAll(async () => {
  const first = await startLocalStack(testConfig({ dataDir: fresh }));
  await first.close();
});

let copies = 0;
function copyOfFresh(): string {
  copies += 1;
  const dir = join(workDir, `copy-${String(copies)}`);
  cpSync(fresh, dir, { recursive: true });
  return dir;
}

async function adminClient(url: string) {
  const client = createClient<Database>(url, LOCAL_ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as unknown as typeof globalThis.WebSocket },
  });
  const { error } = await client.auth.signInWithPassword(ADMIN);
  if (error) throw error;
  return client;
}

describe('a persisted local stack', () => {
  it('keeps data written before a restart, and applies nothing twice', async () => {
    const dataDir = copyOfFresh();
    const first = await startLocalStack(testConfig({ dataDir }));
    const client = await adminClient(first.url);
    const { error } = await client.from('voice_configs').update({ stability: 0.61 }).eq('is_active', true);
    expect(error).toBeNull();
    await first.close();

    const second = await startLocalStack(testConfig({ dataDir }));
    try {
      const again = await adminClient(second.url);
      const { data, error: readError } = await again.from('voice_configs').select('stability').eq('is_active', true).single();
      expect(readError).toBeNull();
      expect(data?.stability).toBe(0.61);
      const { count } = await again.from('voice_configs').select('id', { count: 'exact', head: true });
      expect(count).toBe(1);
    } finally {
      await second.close();
    }
  });

  it('says which port is taken and which variable to change', async () => {
    const running = await startLocalStack(testConfig({ dataDir: null }));
    try {
      const port = Number(new URL(running.url).port);
      await expect(startLocalStack(testConfig({ dataDir: null, port }))).rejects.toThrow(
        `Port ${String(port)} is already in use: stop the other process or set SUPABASE_LOCAL_PORT to a free port.`,
      );
    } finally {
      await running.close();
    }
  });
});

describe('the start message', () => {
  it('shows the admin password only while it still signs in', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const config = testConfig({ dataDir: copyOfFresh() });
      await (await runLocalStack(config))();
      expect(log.mock.calls.flat().join('\n')).toContain(`Admin login:      ${ADMIN.email} / ${ADMIN.password}`);

      const stack = await startLocalStack(config);
      await stack.db.query('update auth.users set encrypted_password = $1 where email = $2', [await hashPassword('a-new-password-1'), ADMIN.email]);
      await stack.close();
      log.mockClear();
      await (await runLocalStack(config))();
      const printed = log.mock.calls.flat().join('\n');
      expect(printed).not.toContain(ADMIN.password);
      expect(printed).toContain('password changed since; ADMIN_PASSWORD no longer signs in');
    } finally {
      log.mockRestore();
    }
  });
});
