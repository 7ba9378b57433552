/**
 * The extension as a user gets it: `npm run package` (a production build, then vsce) in a copy of
 * the checkout (so the checkout's dist/, which tests may be using, is left alone), the .vsix's size
 * and the bundles' sizes, and activation measured on that production dist/extension.js. Run once
 * per bench run (BENCH_ONLY=activation or package, or both).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { benchActivation } from './activationBench';
import { beginSection, report } from './measure';
import { tempDir } from '../scripts/tempDirs';

const REPO = join(__dirname, '..');
/** What `npm run package` reads. */
const SOURCES = ['package.json', '.vscodeignore', 'scripts', 'src', 'webview', 'media', 'README.md', 'CHANGELOG.md', 'LICENSE', 'tsconfig.json'];
/** The bundles (uncompressed), biggest first: what the .vsix is made of. */
function bundleSizes(dist: string): { name: string; bytes: number }[] {
  const out: { name: string; bytes: number }[] = [];
  for (const dir of ['', 'agent', 'webview']) {
    const at = join(dist, dir);
    if (!existsSync(at)) continue;
    for (const f of readdirSync(at)) if (f.endsWith('.js')) out.push({ name: dir ? `${dir}/${f}` : f, bytes: statSync(join(at, f)).size });
  }
  return out.sort((a, b) => b.bytes - a.bytes);
}

let done = false;

export function benchPackage(activationRounds: number): void {
  if (done) return;
  done = true;
  const copy = tempDir('v8-lens-package-');
  try {
    for (const path of SOURCES) cpSync(join(REPO, path), join(copy, path), { recursive: true });
    symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'));
    const out = join(copy, 'v8-lens.vsix');
    const r = spawnSync('npm', ['run', 'package', '--', '--out', out], { cwd: copy, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm run package failed: ${r.stderr.slice(-1000)}`);
    const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
    const sizes = bundleSizes(join(copy, 'dist')).map((b) => `${b.name} ${kb(b.bytes)}`);
    const size = statSync(out).size;
    console.log(`  the .vsix: ${kb(size)}; the bundles built (uncompressed; the CLI's cli.js and cli-main.js are not packaged): ${sizes.join(', ')}`);
    // A size: the machine's load does not change it.
    const packaged = sizes.filter((b) => !/^cli(-main)?\.js /.test(b));
    report({ what: 'the .vsix (`npm run package`)', baseline: '', result: `**${kb(size)}** (uncompressed: ${packaged.slice(0, 3).join(', ')})`, target: '≤ 600 KB', met: size <= 600 * 1024, load: [0, 0], untimed: true });
    // The packaging's processes are done: esbuild's service, which npm's exit leaves to init, ran
    // outside the bench's process tree and counted as other work (0.4-0.6 of a core) in the window.
    beginSection();
    benchActivation(activationRounds, join(copy, 'dist', 'extension.js'));
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
