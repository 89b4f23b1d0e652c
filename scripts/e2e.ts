/**
 * npm run test:e2e: Playwright in two lanes side by side, each against an environment of its own
 * (tests/e2e/server.ts: the site, the local stack in memory, the fake providers, the control port):
 *
 * - parallel: every spec but `*.serial.spec.ts`, on the configured ports (tests/e2e/env.ts) and
 *   the build in DIST_DIR (dist/): run `npm run build` first;
 * - serial: the `*.serial.spec.ts` specs one at a time (they change the functions' environment, the
 *   fake providers' behaviour, the greeting cache, the starter knowledge, the saved voice), on
 *   every port + 10 and a build of its own in `<DIST_DIR>-serial/` (the build fixes the stack's
 *   port), which this script makes first.
 *
 * Its own environment is what lets the serial lane run beside the parallel one instead of after
 * it. Arguments go to both lanes (a spec file, `--grep …`). The serial lane's output is printed in
 * one piece when it ends; the last line counts the tests of both lanes.
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { e2eEnv } from '../tests/e2e/env';
import { inSequence, npmRun, run, type Finished } from './childProcesses';

/** How far the serial lane's ports are from the configured ones. */
export const SERIAL_LANE_PORT_OFFSET = 10;

const args = process.argv.slice(2);
const dist = process.env.DIST_DIR ?? 'dist';
const outputDir = process.env.E2E_OUTPUT_DIR ?? 'test-results';
const reports = { parallel: join(tmpdir(), `e2e-parallel-${String(process.pid)}.json`), serial: join(tmpdir(), `e2e-serial-${String(process.pid)}.json`) };

const shifted = (port: number) => String(port + SERIAL_LANE_PORT_OFFSET);
const serialEnv: NodeJS.ProcessEnv = {
  ...process.env,
  E2E_PORT: shifted(e2eEnv.sitePort),
  SUPABASE_LOCAL_PORT: shifted(e2eEnv.stackPort),
  E2E_CONTROL_PORT: shifted(e2eEnv.controlPort),
  FAKE_OPENAI_PORT: shifted(e2eEnv.fakeOpenAIPort),
  FAKE_ELEVENLABS_PORT: shifted(e2eEnv.fakeElevenLabsPort),
  DIST_DIR: `${dist}-serial`,
  E2E_OUTPUT_DIR: `${outputDir}-serial`,
};

function playwright(lane: 'parallel' | 'serial', env: NodeJS.ProcessEnv, buffered: boolean): Promise<Finished> {
  // A spec file or a filter given to both lanes may leave one of them without a test.
  const extra = args.length > 0 ? ['--pass-with-no-tests', ...args] : [];
  return run(`Playwright, ${lane} lane`, 'node_modules/.bin/playwright', ['test', '--reporter=list,json', ...extra], {
    env: { ...env, E2E_LANE: lane, PLAYWRIGHT_JSON_OUTPUT_NAME: reports[lane] },
    buffered,
  });
}

interface Stats {
  expected: number;
  unexpected: number;
  flaky: number;
  skipped: number;
}

function statsOf(file: string): Stats | null {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { stats: Stats }).stats;
  } catch {
    return null;
  } finally {
    rmSync(file, { force: true });
  }
}

const [parallel, serial] = await Promise.all([
  playwright('parallel', process.env, false),
  inSequence([() => npmRun('build', { env: serialEnv, buffered: true }), () => playwright('serial', serialEnv, true)]),
]);

const lanes = [statsOf(reports.parallel), statsOf(reports.serial)];
const counted = lanes.filter((stats): stats is Stats => stats !== null);
const passed = counted.reduce((sum, stats) => sum + stats.expected, 0);
const failed = counted.reduce((sum, stats) => sum + stats.unexpected + stats.flaky, 0);
const skipped = counted.reduce((sum, stats) => sum + stats.skipped, 0);
const broken = [parallel, ...serial].filter((step) => step.code !== 0);
console.log(`\nLanes: ${[parallel, ...serial].map((step) => `${step.name} ${step.seconds.toFixed(0)} s`).join(', ')}`);
if (lanes.includes(null)) console.log(`A lane ended without its report: ${broken.map((step) => step.name).join(', ') || 'unknown'}.`);
console.log(`\ne2e: ${String(passed)} passed, ${String(failed)} failed${skipped > 0 ? `, ${String(skipped)} skipped` : ''}`);
process.exitCode = broken.length > 0 || failed > 0 || lanes.includes(null) ? 1 : (process.exitCode ?? 0);
