/**
 * `npm run bench`: measured side by side in one run, never as a timed test (this machine is shared
 * and noisy, so we report medians and ratios).
 *  1. A large generated .cpuprofile (~50 MB) → summary, against a bare JSON.parse of the same text.
 *     Target: summary ≤ 1.5 × JSON.parse.
 *  2. GC-trace lines classified and parsed per second, against a bare line split of the same text.
 *     Target: ≥ 1 million lines/s.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseCpuProfile } from '../src/core/cpu/cpuProfileFormat';
import { summarizeCpu } from '../src/core/cpu/cpuSummary';
import { GcTraceCollector } from '../src/core/gc/gcTraceCollector';
import { parseTraceGcLine } from '../src/core/gc/traceGcLine';
import { median } from '../src/core/util/stats';
import { generateCpuProfile } from './generateCpuProfile';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PROFILE_MB = Number(process.env.BENCH_PROFILE_MB ?? 50);

function time(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

/** Alternates the two measurements so drift on a shared machine hits both alike. */
function sideBySide(a: () => void, b: () => void): { a: number[]; b: number[] } {
  a();
  b(); // warm-up: JIT and first-touch page faults
  const result = { a: [] as number[], b: [] as number[] };
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2 === 0) {
      result.a.push(time(a));
      result.b.push(time(b));
    } else {
      result.b.push(time(b));
      result.a.push(time(a));
    }
  }
  return result;
}

function benchCpuProfile(): void {
  const text = generateCpuProfile(PROFILE_MB * 1024 * 1024, 42);
  const parsed = JSON.parse(text) as { nodes: unknown[]; samples: unknown[] };
  console.log(`.cpuprofile: ${(text.length / 2 ** 20).toFixed(1)} MB, ${parsed.nodes.length.toLocaleString('en-US')} nodes, ${parsed.samples.length.toLocaleString('en-US')} samples`);
  let sink = 0;
  const t = sideBySide(
    () => {
      sink += (JSON.parse(text) as { samples: unknown[] }).samples.length;
    },
    () => {
      sink += summarizeCpu(parseCpuProfile(text, 'bench.cpuprofile'), { profileFile: 'bench.cpuprofile' }).functions.length;
    },
  );
  const parse = median(t.a);
  const summary = median(t.b);
  console.log(`  JSON.parse         median ${parse.toFixed(0)} ms  [${Math.min(...t.a).toFixed(0)}–${Math.max(...t.a).toFixed(0)}]`);
  console.log(`  profile → summary  median ${summary.toFixed(0)} ms  [${Math.min(...t.b).toFixed(0)}–${Math.max(...t.b).toFixed(0)}]`);
  console.log(`  ratio              ${(summary / parse).toFixed(2)} × JSON.parse (target ≤ 1.5)  ${summary / parse <= 1.5 ? 'OK' : 'MISSED'}`);
  if (sink === -1) console.log(sink);
}

function benchGcTrace(): void {
  const dir = join(__dirname, '..', 'test', 'fixtures', 'gc');
  const sample = ['node20.txt', 'node22.txt', 'node24.txt']
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n'))
    .filter((l) => /^\[\d+:0x/.test(l) && / ms: /.test(l));
  const lines: string[] = [];
  while (lines.length < 2_000_000) lines.push(...sample);
  lines.length = 2_000_000;
  console.log(`GC trace: ${lines.length.toLocaleString('en-US')} lines (recorded Node 20/22/24 lines, repeated)`);
  let sink = 0;
  const t = sideBySide(
    () => {
      for (const l of lines) sink += l.indexOf(' ms: ');
    },
    () => {
      const collector = new GcTraceCollector();
      for (const l of lines) collector.addLine(l);
      sink += collector.events.length;
    },
  );
  const parseOnly = sideBySide(
    () => undefined,
    () => {
      for (const l of lines) if (parseTraceGcLine(l) !== null) sink++;
    },
  );
  const baseline = median(t.a);
  const collect = median(t.b);
  const parse = median(parseOnly.b);
  const rate = (ms: number) => lines.length / (ms / 1000);
  console.log(`  indexOf baseline            median ${baseline.toFixed(0)} ms`);
  console.log(`  parse (parseTraceGcLine)    median ${parse.toFixed(0)} ms = ${(rate(parse) / 1e6).toFixed(2)} million lines/s (target ≥ 1)  ${rate(parse) >= 1e6 ? 'OK' : 'MISSED'}`);
  console.log(`  collect (classify, parse, keep every event)  median ${collect.toFixed(0)} ms = ${(rate(collect) / 1e6).toFixed(2)} million lines/s`);
  if (sink === -1) console.log(sink);
}

console.log(`V8 Lens benchmarks · Node ${process.version} · ${ROUNDS} rounds, medians\n`);
benchCpuProfile();
console.log('');
benchGcTrace();
