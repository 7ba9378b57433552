/**
 * One Node process timed from spawn to exit, with its peak resident memory. The peak is read by the
 * process itself as it exits (one preload, the same for every arm): Linux's VmHWM, the high-water
 * mark of its own address space. getrusage's maxRSS would not do: a child forked from the bench
 * carries the bench's own resident memory at the fork into it (Linux keeps the larger across exec).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { tempDir } from '../scripts/tempDirs';

export interface ProcessFigures {
  ms: number;
  /** Peak resident memory, bytes. */
  peakBytes: number;
}

const dir = tempDir('v8-lens-peak-');
const preload = join(dir, 'peak.js');
writeFileSync(
  preload,
  `process.on('exit', () => {
  const fs = require('fs');
  let peak = process.resourceUsage().maxRSS * 1024;
  try { peak = Number(/VmHWM:\\s*(\\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024; } catch {}
  fs.writeFileSync(process.env.V8_LENS_BENCH_PEAK, String(peak));
});
`,
);
const peakFile = join(dir, 'peak');

/** `node <args>` to its exit (stdout dropped); throws with its stderr when it fails. */
export function wholeProcess(args: readonly string[]): ProcessFigures {
  const start = performance.now();
  const r = spawnSync(process.execPath, ['--require', preload, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, V8_LENS_BENCH_PEAK: peakFile }, maxBuffer: 64 * 2 ** 20 });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')}: ${r.stderr}`);
  return { ms, peakBytes: Number(readFileSync(peakFile, 'utf8')) };
}
