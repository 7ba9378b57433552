// Bundles the Node-side entry points with esbuild. Type checking is a separate step (`npm run typecheck`).
import { build } from 'esbuild';
import { chmod, readFile, rm, writeFile } from 'node:fs/promises';

const production = process.argv.includes('--production');
const { version } = JSON.parse(await readFile('package.json', 'utf8'));
// A production build (the .vsix) must not pick up source maps left by an earlier development build.
if (production) await rm('dist', { recursive: true, force: true });

/** @type {import('esbuild').BuildOptions} */
const nodeDefaults = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  sourcemap: !production,
  sourcesContent: false,
  minify: production,
  external: ['vscode'],
  // jsonc-parser's default (UMD) build requires its own modules at run time, which a bundle cannot
  // see; its ES module build is plain imports.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  define: { __V8_LENS_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
};

/**
 * What the load generator never runs, as modules that say so if they ever are: autocannon's
 * command-line front (its progress bar, result table and colours: the job's entry is lib/init.js),
 * form uploads and HAR files (the lab sends one request shape), and what Node has built in: pako
 * (hdr-histogram-js inflates its WebAssembly with it; Node's zlib does the same) and the `buffer`
 * polyfill (hyperid's fallback for Node's Buffer). semver answers autocannon's one question, whether this Node has
 * worker threads (every Node V8 Lens runs on has). Half of the bundle, a tenth of the .vsix.
 */
/** @type {import('esbuild').Plugin} */
const unusedByTheLoadGenerator = {
  name: 'unused-by-the-load-generator',
  setup(b) {
    const refusal = (what) => `function () { throw new Error("V8 Lens's load generator does not bundle ${what}"); }`;
    /** Module name as autocannon and its dependencies require it → what stands in for it. */
    const stubs = new Map([
      ['./progressTracker', `module.exports = ${refusal("autocannon's progress bar")};`],
      ['./multipart', `module.exports = ${refusal('form uploads')};`],
      ['./parseHAR', `module.exports = { parseHAR: ${refusal('HAR files')} };`],
      ['pako', "const zlib = require('zlib'); module.exports = { inflate: (d) => zlib.inflateSync(d), deflate: (d, o) => zlib.deflateSync(d, o) };"],
      ['buffer/', "module.exports = require('buffer');"],
      ['semver', 'module.exports = { gte: () => true };'],
    ]);
    const stubbed = new RegExp(`^(${[...stubs.keys()].map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`);
    b.onResolve({ filter: /^autocannon$/ }, (args) => b.resolve('autocannon/lib/init.js', { resolveDir: args.resolveDir, kind: args.kind }));
    b.onResolve({ filter: stubbed }, (args) => ({ path: args.path, namespace: 'unused' }));
    b.onLoad({ filter: /.*/, namespace: 'unused' }, (args) => ({ contents: stubs.get(args.path), loader: 'js' }));
  },
};

/**
 * The attach client's WebSocket library (`ws`) is imported only when an attach connects: it is a
 * bundle of its own beside the one that imports it, so the extension host does not parse its
 * 50 KB on every activation.
 */
/** @type {import('esbuild').Plugin} */
const wsBeside = {
  name: 'ws-beside',
  setup(b) {
    b.onResolve({ filter: /^ws$/ }, () => ({ path: './ws.js', external: true }));
  },
};
/**
 * The same for acorn (a fifth of the extension's bundle): the outline of a script is read when a
 * run's line heat is, with a require of its bundle beside this one (cpu/scriptOutline.ts).
 */
/** @type {import('esbuild').Plugin} */
const acornBeside = {
  name: 'acorn-beside',
  setup(b) {
    b.onResolve({ filter: /^acorn$/ }, (args) => (args.kind === 'require-call' ? { path: './acorn.js', external: true } : undefined));
  },
};
/** The lazy `import('ws')` as a CommonJS require of that bundle, as every other module is loaded. */
const wsBesideOptions = { plugins: [wsBeside, acornBeside], supported: { 'dynamic-import': false } };

/** @type {import('esbuild').BuildOptions} */
const browserDefaults = {
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: ['chrome120'],
  minify: true,
  sourcemap: production ? false : 'linked',
  sourcesContent: false,
  legalComments: 'eof', // the libraries' licence notices travel with the bundles, also into the HTML export
  logLevel: 'warning',
};

await Promise.all([
  // The bin is a small launcher that loads the command line with a V8 code cache (src/cliLauncher.ts).
  build({ ...nodeDefaults, entryPoints: ['src/cliLauncher.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } }),
  build({ ...nodeDefaults, entryPoints: ['src/cli.ts'], outfile: 'dist/cli-main.js', ...wsBesideOptions }),
  // package.json's main is a small launcher that loads the extension with a V8 code cache (src/extension/extensionLauncher.ts).
  build({ ...nodeDefaults, entryPoints: ['src/extension/extensionLauncher.ts'], outfile: 'dist/extension.js' }),
  build({ ...nodeDefaults, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension-main.js', ...wsBesideOptions }),
  build({ ...nodeDefaults, stdin: { contents: "module.exports = require('ws');", resolveDir: '.', sourcefile: 'ws-entry.js' }, outfile: 'dist/ws.js', sourcemap: false }),
  build({ ...nodeDefaults, stdin: { contents: "module.exports = require('acorn');", resolveDir: '.', sourcefile: 'acorn-entry.js' }, outfile: 'dist/acorn.js', sourcemap: false }),
  // The preload runs inside the *target's* Node (any version from 18 on), so it must stay dependency-free and small.
  build({ ...nodeDefaults, entryPoints: ['src/core/preload/agent.ts'], outfile: 'dist/agent/preload.js', sourcemap: false }),
  // The lab's measured runs get the smallest agent there can be (see labAgent.ts): a few KB in the app's heap.
  build({ ...nodeDefaults, entryPoints: ['src/core/preload/labAgent.ts'], outfile: 'dist/agent/lab-preload.js', sourcemap: false }),
  // The semi-space sweep's load generator, forked (never run in the CLI's or the extension host's
  // process). hdr-histogram-js carries its WebAssembly inline (base64); what the job never runs is
  // left out (unusedByTheLoadGenerator).
  build({ ...nodeDefaults, entryPoints: ['src/core/load/loadRunner.ts'], outfile: 'dist/load-runner.js', sourcemap: false, plugins: [unusedByTheLoadGenerator] }),
  // The webviews: one browser IIFE each plus its CSS (d3-flame-graph's ES build imports its CSS,
  // which esbuild writes beside the bundle: nothing injects a <style>, so a strict CSP holds).
  // Always minified: the report's files are inlined into the standalone HTML export.
  build({ ...browserDefaults, entryPoints: ['webview/report/main.ts'], outfile: 'dist/webview/report.js' }),
  // Two runs side by side; imports report.css and compare.css, written to compare.css.
  build({ ...browserDefaults, entryPoints: ['webview/compare/main.ts'], outfile: 'dist/webview/compare.js' }),
  // The Semi-space Lab (sidebar view and results panel); its CSS is an entry of its own.
  build({ ...browserDefaults, entryPoints: ['webview/lab/main.ts', 'webview/lab/lab.css'], outdir: 'dist/webview', entryNames: 'lab' }),
  // The standalone HTML export's light and dark palette (the --vscode-* variables VS Code would
  // set); src/core/report/reportPage.ts reads it from here and inlines it.
  build({ ...browserDefaults, entryPoints: ['webview/common/standalone.css'], outfile: 'dist/webview/standalone.css' }),
]);
await chmod('dist/cli.js', 0o755);
// Node reads the package.json nearest a --require'd file to learn its module type, in the target's
// own heap (Node 20 parses it in JavaScript): next to the agents it is this one line, not V8 Lens's
// manifest (or a user's), so loading an agent costs the app ~50 KB less.
await writeFile('dist/agent/package.json', '{"type":"commonjs"}\n');
