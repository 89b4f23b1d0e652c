/**
 * npm test: ESLint, tsc, Vitest, the build and Playwright, all of which must pass. ESLint and
 * tsc each keep one core busy, so ESLint (the longest, its output printed when it ends) runs
 * beside the rest: tsc, then the build, then Vitest. Playwright (`npm run test:e2e`, two lanes)
 * starts when all of them have passed; its last line counts the end-to-end tests.
 */
import { type Finished, inSequence, npmRun } from './childProcesses';

const [lint, checks] = await Promise.all([
  npmRun('lint', { buffered: true }),
  inSequence([() => npmRun('typecheck'), () => npmRun('build'), () => npmRun('test:unit')]),
]);

const took = (steps: readonly Finished[]) => steps.map((step) => `${step.name} ${step.seconds.toFixed(0)} s`).join(', ');
console.log(`\nBeside each other: ${took([lint])} | ${took(checks)}`);
const failed = [lint, ...checks].filter((step) => step.code !== 0);
if (failed.length > 0 || checks.length < 3) {
  console.log(`\nFailed: ${failed.map((step) => step.name).join(', ')}. The end-to-end tests did not run.`);
  process.exitCode = 1;
} else {
  const e2e = await npmRun('test:e2e');
  process.exitCode = e2e.code;
}
