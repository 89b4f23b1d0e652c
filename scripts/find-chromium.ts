/**
 * Finds a Chromium: CHROMIUM_PATH, then the system's chromium, then Playwright's own download;
 * with none of them it tries `playwright install chromium` once and fails with a message that
 * says what to install. The end-to-end tests take Chromium's headless shell where it is installed
 * (`findTestChromium`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from '@playwright/test';

const systemCandidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/snap/bin/chromium'];

function playwrightOwn(): string | null {
  try {
    const path = chromium.executablePath();
    return existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

export function findChromium(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv;
    throw new Error(`CHROMIUM_PATH points to ${fromEnv}, which does not exist.`);
  }
  const found = systemCandidates.find((path) => existsSync(path)) ?? playwrightOwn();
  if (found) return found;

  try {
    const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
    execFileSync(process.execPath, [cli, 'install', 'chromium'], { stdio: 'inherit' });
  } catch {
    // Reported below together with the ways out.
  }
  const installed = playwrightOwn();
  if (installed) return installed;
  throw new Error(
    'No Chromium found for the end-to-end tests. Install one (Debian/Ubuntu: `apt-get install chromium`) ' +
      'or set CHROMIUM_PATH to a Chromium or Chrome binary.',
  );
}

const headlessShellCandidates = ['/usr/bin/chromium-headless-shell'];

/**
 * The browser for the end-to-end tests: Chromium's headless shell (Debian's
 * `chromium-headless-shell`), the same engine as the full browser without its windowing layers and
 * Playwright's own choice for headless runs; it needs about half the CPU per page of the full
 * browser in headless mode. CHROMIUM_PATH still wins; without a headless shell, the full browser.
 */
export function findTestChromium(): string {
  if (process.env.CHROMIUM_PATH) return findChromium();
  return headlessShellCandidates.find((path) => existsSync(path)) ?? findChromium();
}

/** Flags that keep Chromium quiet and stable on a closed network, as root, without a GPU. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
