/**
 * npm run lock:platforms — run after `npm install` changes package-lock.json.
 *
 * Some packages ship their native code as optional per-platform packages (Tailwind's oxide, the
 * import resolver behind eslint-plugin-import-x). When the registry in use does not carry the
 * packages of other platforms, `npm install` leaves them out of the lock file and `npm ci` then
 * refuses to run ("Missing: … from lock file"). This adds lock entries for them with their
 * platform constraints (os, cpu, libc), so `npm ci` knows to skip them on this platform, as it
 * would with a complete registry.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface LockEntry {
  version?: string;
  optional?: boolean;
  dev?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
}

const root = join(import.meta.dirname, '..');
const lockPath = join(root, 'package-lock.json');

function missingFromLock(): string[] {
  try {
    execFileSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: root, stdio: 'pipe' });
    return [];
  } catch (error) {
    const output = String((error as { stderr?: Buffer }).stderr ?? '');
    return [...new Set([...output.matchAll(/Missing: (\S+?)@\S* from lock file/g)].map((match) => match[1] ?? ''))];
  }
}

function platformOf(name: string): Pick<LockEntry, 'os' | 'cpu' | 'libc'> {
  const base = name.split('/').pop() ?? name;
  const os = ['android', 'darwin', 'freebsd', 'linux', 'win32', 'openharmony'].find((candidate) => base.includes(candidate));
  const cpus: [string, string][] = [
    ['arm64', 'arm64'],
    ['x64', 'x64'],
    ['ia32', 'ia32'],
    ['arm', 'arm-'],
    ['loong64', 'loong64'],
    ['ppc64', 'ppc64'],
    ['riscv64', 'riscv64'],
    ['s390x', 's390x'],
    ['wasm32', 'wasm32'],
  ];
  const cpu = cpus.find(([, pattern]) => base.includes(pattern))?.[0];
  const libc = base.includes('musl') ? 'musl' : base.includes('-gnu') ? 'glibc' : undefined;
  return { ...(os ? { os: [os] } : {}), ...(cpu ? { cpu: [cpu] } : {}), ...(libc ? { libc: [libc] } : {}) };
}

const missing = missingFromLock();
if (missing.length === 0) {
  console.log('package-lock.json is complete: npm ci runs as it is.');
} else {
  const lock = JSON.parse(readFileSync(lockPath, 'utf8')) as { packages: Record<string, LockEntry> };
  const wanted = new Map<string, string>();
  for (const entry of Object.values(lock.packages)) {
    for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) wanted.set(name, version);
  }
  for (const name of missing) {
    const version = wanted.get(name);
    if (!version) throw new Error(`${name} is missing from the lock file but is no optional dependency: run npm install.`);
    lock.packages[`node_modules/${name}`] = { version: version.replace(/^[\^~]/, ''), optional: true, dev: true, ...platformOf(name) };
  }
  writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`Added ${String(missing.length)} other-platform optional packages to package-lock.json.`);
  const still = missingFromLock();
  if (still.length > 0) throw new Error(`Still missing: ${still.join(', ')}`);
}
