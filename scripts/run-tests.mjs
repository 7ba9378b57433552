// Runs the test files under the given folders (default: test/unit, test/integration, test/browser) with Node's
// built-in test runner; TypeScript is loaded through tsx. Node 20's `--test` has no glob support,
// so the files are listed here.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const roots = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const passThrough = process.argv.slice(2).filter((a) => a.startsWith('--'));
const folders = roots.length > 0 ? roots : ['test/unit', 'test/integration', 'test/browser'];

function collect(dir, out) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (name === 'fixtures' || name === 'node_modules') continue;
    if (statSync(full).isDirectory()) collect(full, out);
    else if (name.endsWith('.test.ts')) out.push(relative(process.cwd(), full));
  }
  return out;
}

const files = folders.flatMap((f) => (f.endsWith('.ts') ? [f] : collect(f, [])));
if (files.length === 0) {
  console.error(`run-tests: no *.test.ts files under ${folders.join(', ')}`);
  process.exit(1);
}

// Real-Node tests (integration, and a few unit tests that check flags against Node 24) need the extra
// Node versions, and the fixture apps their dependencies; each install is a no-op once it matches
// its lockfile.
for (const script of ['scripts/install-test-nodes.mjs', 'scripts/install-fixture-apps.mjs']) {
  const setup = spawnSync(process.execPath, [script], { stdio: 'inherit' });
  if (setup.status !== 0) process.exit(setup.status ?? 1);
}

const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', ...passThrough, ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
