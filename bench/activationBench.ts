/**
 * What activating the extension costs: dist/extension.js loaded in a fresh Node with `vscode`
 * stubbed, against the same fresh Node with the stub alone (the baseline). Each round is a new
 * process, interleaved with the baseline; medians
 * (the `ws` client is loaded when an attach connects, not while the bundle is evaluated).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { median } from '../src/core/util/stats';

const PROBE = `
const Module = require('module');
const stub = new Proxy(function () {}, { get: (t, k) => (k === 'then' ? undefined : stub), construct: () => stub, apply: () => stub });
const load = Module._load;
Module._load = function (req, ...rest) { return req === 'vscode' ? stub : load.call(this, req, ...rest); };
const t0 = performance.now();
if (process.argv[1]) require(process.argv[1]);
const ms = performance.now() - t0;
console.log(JSON.stringify({ ms, total: performance.now() }));
`;

function fresh(bundle: string | null): { ms: number; total: number } {
  const r = spawnSync(process.execPath, ['-e', PROBE, ...(bundle ? [bundle] : [''])], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`activation probe failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim()) as { ms: number; total: number };
}

export function benchActivation(rounds: number): void {
  const bundle = join(__dirname, '..', 'dist', 'extension.js');
  const base: number[] = [];
  const ext: number[] = [];
  const load: number[] = [];
  fresh(bundle);
  for (let i = 0; i < rounds; i++) {
    base.push(fresh(null).total);
    const r = fresh(bundle);
    ext.push(r.total);
    load.push(r.ms);
  }
  console.log(`extension activation: dist/extension.js loaded in a fresh Node (vscode stubbed), ${rounds} interleaved rounds`);
  console.log(`  fresh Node, stub only        median ${median(base).toFixed(1)} ms to the end of the script`);
  console.log(`  fresh Node + extension.js    median ${median(ext).toFixed(1)} ms; the bundle's evaluation ${median(load).toFixed(1)} ms (target < 50 ms)  ${median(load) < 50 ? 'OK' : 'MISSED'}`);
}
