/**
 * What activating the extension costs: dist/extension.js (the production build, from
 * packageBench.ts) loaded in a fresh Node with `vscode`
 * stubbed, against the same fresh Node with the stub alone (the baseline). Each round is a new
 * process, interleaved with the baseline in roundOrder order; medians
 * (the `ws` client is loaded when an attach connects, not while the bundle is evaluated). The
 * entry loads the extension from its V8 code cache, written by the warm-up as by a user's first
 * activation of a build; that first activation, without the cache, is a third arm.
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { median } from '../src/core/util/stats';
import { fmtSpread, report, roundOrder } from './measure';

/**
 * Node modules VS Code's extension host has loaded before any extension runs (its IPC socket and
 * its proxy support patch net, tls, http and https): loaded before the clock starts, as a bare
 * Node would otherwise charge them to the bundle. Any other module the bundle needs (zlib,
 * child_process, readline, …) counts.
 */
const HOST_MODULES = ['fs', 'path', 'os', 'url', 'util', 'events', 'stream', 'crypto', 'net', 'tls', 'http', 'https'];

const PROBE = `
const Module = require('module');
for (const m of ${JSON.stringify(HOST_MODULES)}) require(m);
const stub = new Proxy(function () {}, { get: (t, k) => (k === 'then' ? undefined : stub), construct: () => stub, apply: () => stub });
const load = Module._load;
Module._load = function (req, ...rest) { return req === 'vscode' ? stub : load.call(this, req, ...rest); };
const t0 = performance.now();
if (process.argv[1]) require(process.argv[1]);
const ms = performance.now() - t0;
console.log(JSON.stringify({ ms, total: performance.now() }));
`;

function fresh(bundle: string | null, cold = false): { ms: number; total: number } {
  const env = cold ? { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' } : process.env;
  const r = spawnSync(process.execPath, ['-e', PROBE, ...(bundle ? [bundle] : [''])], { encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`activation probe failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim()) as { ms: number; total: number };
}

export function benchActivation(rounds: number, bundle = join(__dirname, '..', 'dist', 'extension.js')): void {
  const base: number[] = [];
  const ext: number[] = [];
  const load: number[] = [];
  const cold: number[] = [];
  // Writes the code cache, as a user's first activation does (src/extension/extensionLauncher.ts).
  fresh(bundle);
  const before = loadavg()[0]!;
  for (let i = 0; i < rounds; i++) {
    for (const arm of roundOrder(['base', 'ext', 'cold'] as const, i)) {
      if (arm === 'base') base.push(fresh(null).total);
      else if (arm === 'cold') cold.push(fresh(bundle, true).ms);
      else {
        const r = fresh(bundle);
        ext.push(r.total);
        load.push(r.ms);
      }
    }
  }
  console.log(`extension activation: ${bundle} loaded in a fresh Node (vscode stubbed), ${rounds} roundOrder rounds`);
  console.log(`  fresh Node, stub only        ${fmtSpread(base, 'ms', 1)} to the end of the script`);
  console.log(`  fresh Node + extension.js    ${fmtSpread(ext, 'ms', 1)}; the bundle's evaluation ${fmtSpread(load, 'ms', 1)}`);
  console.log(`  the same without its code cache (the first activation of a build): ${fmtSpread(cold, 'ms', 1)}`);
  report({
    what: 'activating the extension: `dist/extension.js` evaluated in a fresh Node (`vscode` stubbed)',
    baseline: `the same fresh Node alone: ${fmtSpread(base, 'ms', 1)}`,
    result: `**${fmtSpread(load, 'ms', 1)}** of evaluation (the first activation of a build, which writes its code cache: ${fmtSpread(cold, 'ms', 1)})`,
    target: '≤ 20 ms',
    met: median(load) <= 20,
    load: [before, loadavg()[0]!],
  });
}
