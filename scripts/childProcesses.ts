/**
 * Commands run side by side by `npm test` and `npm run test:e2e`: each either streams its output
 * (one at a time, or the run becomes unreadable) or keeps it until it ends and then prints it in
 * one piece. A signal to this process (Ctrl-C, CI stopping the run) is passed on to every command
 * still running, so that none is left holding a port.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface Finished {
  name: string;
  code: number;
  seconds: number;
}

const running = new Set<ChildProcess>();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of running) child.kill(signal);
    process.exitCode = 1;
  });
}

/**
 * Runs `npm run <script>` (or any command) and resolves with its exit code. `buffered`: the output
 * is printed when the command ends, under a line naming it.
 */
export function run(
  name: string,
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; buffered?: boolean } = {},
): Promise<Finished> {
  const started = performance.now();
  const child = spawn(command, args, {
    env: options.env ?? process.env,
    stdio: options.buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  running.add(child);
  const output: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve) => {
    const done = (code: number) => {
      running.delete(child);
      const seconds = (performance.now() - started) / 1000;
      if (options.buffered) {
        process.stdout.write(`\n── ${name} (${seconds.toFixed(0)} s, exit ${String(code)}) ──\n`);
        process.stdout.write(Buffer.concat(output));
      }
      resolve({ name, code, seconds });
    };
    child.on('error', (error) => {
      output.push(Buffer.from(`${String(error)}\n`));
      done(1);
    });
    child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

/** Runs the steps one after the other and stops at the first that fails. */
export async function inSequence(steps: readonly (() => Promise<Finished>)[]): Promise<Finished[]> {
  const finished: Finished[] = [];
  for (const step of steps) {
    const result = await step();
    finished.push(result);
    if (result.code !== 0) break;
  }
  return finished;
}

export const npmRun = (script: string, options: { env?: NodeJS.ProcessEnv; buffered?: boolean } = {}) =>
  run(`npm run ${script}`, 'npm', ['run', script], options);
