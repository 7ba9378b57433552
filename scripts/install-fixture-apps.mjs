// Installs the dependencies of the fixture apps (test/fixtures/apps/*) from their lockfiles, as a new
// user's checkout would have them: `npm ci` in every app that has a package-lock.json and whose
// node_modules is missing or does not match the lockfile. Their node_modules are never committed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const appsDir = join('test', 'fixtures', 'apps');

/** Every package the lockfile lists is there, at the locked version. */
function installed(dir) {
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
  for (const [key, entry] of Object.entries(lock.packages ?? {})) {
    // Optional packages for other platforms are never installed; links have no version of their own.
    if (!key.startsWith('node_modules/') || entry.optional || entry.link) continue;
    const pkgJson = join(dir, key, 'package.json');
    if (!existsSync(pkgJson)) return false;
    if (JSON.parse(readFileSync(pkgJson, 'utf8')).version !== entry.version) return false;
  }
  return true;
}

const apps = existsSync(appsDir)
  ? readdirSync(appsDir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(join(appsDir, e.name, 'package-lock.json')))
      .map((e) => join(appsDir, e.name))
  : [];

for (const dir of apps) {
  if (installed(dir)) continue;
  console.log(`Installing the fixture app's dependencies (${dir})…`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`install-fixture-apps: \`npm ci\` in ${dir} failed; the fixture apps need the npm registry once.`);
    process.exit(r.status ?? 1);
  }
}
