/**
 * `npm run bench`: each figure measured against its baseline in the same run, interleaved in
 * roundOrder order, printed as a median with [min–max] and the load average (bench/measure.ts); never
 * as a timed test. `npm run bench -- --markdown` also writes the README's table (bench/markdown.ts),
 * refusing figures measured above the load threshold. BENCH_ONLY=name,… runs some of them:
 *  profile     a ~50 MB generated .cpuprofile → summary, against a bare JSON.parse of the same text
 *  gc          GC-trace lines parsed and collected per second, against finding the lines' ends; report <gc log>
 *              as a whole process against reading and splitting the file (time, peak memory)
 *  annotations the editor's annotation model for 5,000 deopts in one file, against JSON.parse of its summary
 *  page        the report page in headless Chromium (tsc profile and a 47 MB generated one) against a
 *              bare page that parses the same data; zoom, search, the HTML's size, report --html in process
 *  json        report --json and --html of the tsc profile and a 47 MB one as whole processes, against a
 *              process that only parses the same file (time, peak memory)
 *  cli         v8-lens profile of a no-op script, against node --cpu-prof of it, whole processes
 *  alloc       what allocation sampling costs the demo HTTP service (req/s, paired)
 *  overhead    what each preset costs three kinds of program (HTTP under load, CPU-bound, allocation-heavy),
 *              against bare node, node --cpu-prof and node --trace-gc (bench/overheadBench.ts)
 *  instructions the work the default and GC-only presets add to the allocation-heavy script, as instructions
 *              counted by valgrind, at start-up and per unit of work (bench/instructionsBench.ts)
 *  activation  the production dist/extension.js evaluated in a fresh Node, against that Node alone
 *  package     the .vsix's size (npm run package; dist/ is rebuilt for development after it); with
 *              activation, one production build serves both
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseCpuProfile } from '../src/core/cpu/parseCpuProfile';
import { summarizeCpu } from '../src/core/cpu/cpuSummary';
import { median } from '../src/core/util/stats';
import { DEFAULT_THRESHOLDS } from '../src/core/annotations/annotationTypes';
import { buildAnnotations } from '../src/core/annotations/buildAnnotations';
import { SourceMapResolver } from '../src/core/sourcemap/sourceMapResolver';
import type { Summary } from '../src/shared/model/summary';
import { generateCpuProfile } from './generateCpuProfile';
import { benchReportJsonProcess, benchReportPage } from './pageBench';
import { benchCliTail } from './cliBench';
import { benchGcTrace } from './gcBench';
import { benchOverhead, type Kind } from './overheadBench';
import { benchInstructions } from './instructionsBench';
import { benchPackage } from './packageBench';
import { beginSection, fmtSpread, loadLine, machineLine, MAX_LOAD, MAX_OTHER_CORES, report, roundOrder, spread, underLoadWatch } from './measure';
import { writeMarkdown } from './markdown';
import { tempDir } from '../scripts/tempDirs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const PROFILE_MB = Number(process.env.BENCH_PROFILE_MB ?? 50);

function time(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

/** The two measurements interleaved, the order alternating each round, so drift on a shared machine hits both alike. */
function sideBySide(a: () => void, b: () => void): { a: number[]; b: number[] } {
  a();
  b(); // warm-up: JIT and first-touch page faults
  const result = { a: [] as number[], b: [] as number[] };
  for (let i = 0; i < ROUNDS; i++) {
    for (const arm of roundOrder(['a', 'b'] as const, i)) result[arm].push(time(arm === 'a' ? a : b));
  }
  return result;
}

async function benchCpuProfile(): Promise<void> {
  const text = generateCpuProfile(PROFILE_MB * 1024 * 1024, 42);
  const parsed = JSON.parse(text) as { nodes: unknown[]; samples: unknown[] };
  console.log(`.cpuprofile: ${(text.length / 2 ** 20).toFixed(1)} MB, ${parsed.nodes.length.toLocaleString('en-US')} nodes, ${parsed.samples.length.toLocaleString('en-US')} samples`);
  let sink = 0;
  const { value: t, load } = await underLoadWatch(() =>
    sideBySide(
      () => {
        sink += (JSON.parse(text) as { samples: unknown[] }).samples.length;
      },
      () => {
        sink += summarizeCpu(parseCpuProfile(text, 'bench.cpuprofile'), { profileFile: 'bench.cpuprofile' }).functions.length;
      },
    ),
  );
  const ratios = t.b.map((v, i) => v / t.a[i]!);
  const ratio = spread(ratios).median;
  console.log(`  JSON.parse         ${fmtSpread(t.a)}`);
  console.log(`  profile → summary  ${fmtSpread(t.b)}`);
  report({
    what: `${(text.length / 2 ** 20).toFixed(1)} MB generated \`.cpuprofile\` (${parsed.nodes.length.toLocaleString('en-US')} nodes) → summary, in process`,
    baseline: `\`JSON.parse\` ${fmtSpread(t.a)}`,
    result: `${fmtSpread(t.b)} = **${fmtSpread(ratios, '×', 2)}** \`JSON.parse\``,
    target: '≤ 1.5 ×',
    met: ratio <= 1.5,
    load,
  });
  if (sink === -1) console.log(sink);
}

async function timeAsync(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function benchAnnotations(): Promise<void> {
  const root = tempDir('v8lens-bench-');
  mkdirSync(join(root, 'src'));
  const files = Array.from({ length: 200 }, (_, i) => join(root, 'src', `m${i}.js`));
  for (const f of files) writeFileSync(f, 'function f(a) {\n  return a.x;\n}\n'.repeat(400));
  const hot = files[0]!;
  const reasons = ['wrong map', 'not a Smi', 'Insufficient type feedback for generic named access', 'out of bounds', 'hole'];
  const summary: Summary = {
    schemaVersion: 1,
    source: { kind: 'run', path: root },
    cpu: {
      profile: 'x.cpuprofile', durationMs: 60_000, sampleCount: 60_000, sampleIntervalMs: 1,
      functions: files.flatMap((url) => Array.from({ length: 20 }, (_, i) => ({ name: 'f', url, line: 1 + i * 3, column: 1, selfMs: 10, totalMs: 30 }))),
      lines: files.flatMap((url) => Array.from({ length: 100 }, (_, i) => ({ url, line: 2 + i * 3, selfMs: 3 }))),
      pseudo: { gcMs: 0, idleMs: 0, programMs: 0 },
      profiles: [],
    },
    gc: null,
    deopts: Array.from({ length: 5000 }, (_, i) => ({
      url: hot, line: 2 + (i % 400) * 3, column: 10 + Math.floor(i / 400), function: 'f', optimizedFunction: 'f', kind: 'deopt-eager',
      reason: reasons[i % reasons.length]!, count: 1 + (i % 7), inlinedAt: [{ url: hot, line: 5, column: 3 }], firstMs: i, lastMs: i, tier: 'TurboFan', functionStart: null,
    })),
    deoptFunctions: [],
    optimizedFunctions: [],
    deoptCoverage: 'collected',
    warnings: [],
  };
  const text = JSON.stringify(summary);
  const build = () => buildAnnotations(JSON.parse(text) as Summary, { source: root, capturedAt: null, roots: [root], resolver: new SourceMapResolver(), thresholds: DEFAULT_THRESHOLDS });
  console.log(`annotations: 5,000 deopt sites in one file, ${summary.cpu!.lines.length.toLocaleString('en-US')} sampled lines in ${files.length} files (summary.json ${(text.length / 2 ** 20).toFixed(1)} MB)`);
  let sink = 0;
  await build();
  const parse: number[] = [];
  const model: number[] = [];
  const before = loadavg()[0]!;
  for (let i = 0; i < ROUNDS; i++) {
    for (const arm of roundOrder(['parse', 'model'] as const, i)) {
      if (arm === 'parse') parse.push(await timeAsync(async () => (sink += (JSON.parse(text) as Summary).deopts.length)));
      else model.push(await timeAsync(async () => (sink += (await build()).files.size)));
    }
  }
  const m = median(model);
  console.log(`  JSON.parse of summary.json   ${fmtSpread(parse, 'ms', 1)}`);
  console.log(`  summary → annotation model   ${fmtSpread(model, 'ms', 1)}`);
  report({
    what: `the editor's annotation model for 5,000 deopt sites in one file + ${summary.cpu!.lines.length.toLocaleString('en-US')} sampled lines in ${files.length} files`,
    baseline: `\`JSON.parse\` of its summary ${fmtSpread(parse, 'ms', 1)}`,
    result: `**${fmtSpread(model)}**`,
    target: '< 250 ms',
    met: m < 250,
    load: [before, loadavg()[0]!],
  });
  if (sink === -1) console.log(sink);
}

/** One profile of the demo service under load through the real CLI; its req/s in the measured window. */
function serviceRps(options: readonly string[], seconds: number): number {
  const out = join(tempDir('v8-lens-bench-'), 'run');
  const cli = join(__dirname, '..', 'dist', 'cli.js');
  const service = join(__dirname, '..', 'examples', 'http-service', 'server.js');
  const r = spawnSync(process.execPath, [cli, 'profile', ...options, '--out', out, '--url', 'auto', '--warmup', '2', '--duration', String(seconds), '--connections', '10', '--', service], { encoding: 'utf8', maxBuffer: 256 * 2 ** 20 });
  // The app's own output shares the CLI's stdout: the figures are read from the run folder.
  const rps = r.status === 0 ? (JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary).load?.figures?.rps : undefined;
  if (rps === undefined) throw new Error(`the run with ${options.join(' ')} failed: ${r.stderr.slice(-500)}`);
  return rps;
}

/** The arms of the allocation bench: the baseline first, each compared with it in the same round. */
const ALLOC_ARMS = [
  { label: 'CPU + GC', options: ['--preset', 'cpu-gc'] },
  { label: 'CPU + GC + alloc', options: ['--preset', 'cpu-gc-alloc'] },
  { label: '  + exact sites', options: ['--preset', 'cpu-gc-alloc', '--exact-alloc-sites'] },
] as const;

function benchAllocationOverhead(): void {
  const before = loadavg()[0]!;
  const rounds = Number(process.env.BENCH_SERVICE_ROUNDS ?? 5);
  const seconds = Number(process.env.BENCH_SERVICE_SECONDS ?? 5);
  console.log(`allocation sampling on the demo HTTP service: ${rounds} interleaved rounds of ${seconds} s measured (after 2 s warm-up), 10 connections`);
  const rps = ALLOC_ARMS.map(() => [] as number[]);
  for (let i = 0; i < rounds; i++) {
    // Rotate which goes first, so drift and warm caches hit every arm alike.
    for (let k = 0; k < ALLOC_ARMS.length; k++) {
      const arm = (i + k) % ALLOC_ARMS.length;
      rps[arm]!.push(serviceRps(ALLOC_ARMS[arm]!.options, seconds));
    }
  }
  const base = rps[0]!;
  ALLOC_ARMS.forEach((arm, a) => {
    const runs = rps[a]!;
    const range = `median ${median(runs).toFixed(0)} req/s  [${Math.min(...runs).toFixed(0)}–${Math.max(...runs).toFixed(0)}]`;
    if (a === 0) return console.log(`  ${arm.label.padEnd(18)}  ${range}`);
    const paired = runs.map((r, i) => r / base[i]!);
    const ratio = median(paired);
    console.log(`  ${arm.label.padEnd(18)}  ${range}  ratio (paired, median) ${ratio.toFixed(3)} = ${((1 - ratio) * 100).toFixed(1)}% fewer req/s`);
    report({
      what: a === 1 ? `req/s of the demo HTTP service under the same load with allocation sampling (every 32 KB) vs without (${rounds} roundOrder rounds of ${seconds} s)` : 'the same with exact allocation sites (inlining off)',
      baseline: `CPU + GC: ${fmtSpread(base, 'req/s')}`,
      result: `${fmtSpread(runs, 'req/s')}: paired ratio **${fmtSpread(paired, '', 3)}**`,
      target: a === 1 ? '≥ 0.95 (≤ 5 % fewer)' : 'opt-in',
      met: a === 1 ? ratio >= 0.95 : null,
      load: [before, loadavg()[0]!],
    });
  });
}

/** BENCH_ONLY=profile,gc,annotations,page,json,cli,alloc,overhead,instructions,activation,package runs some of them. */
const BENCHES: Record<string, () => void | Promise<void>> = {
  profile: benchCpuProfile,
  gc: () => benchGcTrace(ROUNDS),
  annotations: benchAnnotations,
  page: () => benchReportPage(Math.max(5, Math.min(ROUNDS, 7))),
  json: () => benchReportJsonProcess(Math.max(5, Math.min(ROUNDS, 7))),
  cli: () => benchCliTail(Math.max(7, ROUNDS)),
  alloc: benchAllocationOverhead,
  overhead: () =>
    benchOverhead(
      { http: Number(process.env.BENCH_OVERHEAD_ROUNDS ?? 5), fixedWork: Number(process.env.BENCH_OVERHEAD_FIXED_ROUNDS ?? 31) },
      (process.env.BENCH_OVERHEAD_KINDS?.split(',') as Kind[] | undefined) ?? undefined,
    ),
  instructions: () => benchInstructions(Number(process.env.BENCH_INSTRUCTIONS_RUNS ?? 3)),
  // Both on the production build npm run package makes (once per run).
  activation: () => benchPackage(Math.max(7, ROUNDS)),
  package: () => benchPackage(Math.max(7, ROUNDS)),
};

async function main(): Promise<void> {
  const markdown = process.argv.includes('--markdown');
  const startLoad = loadLine();
  console.log(`V8 Lens benchmarks · Node ${process.version} · ${machineLine()} · ${ROUNDS} rounds, interleaved in roundOrder order, medians [min–max]`);
  console.log(`load average (1/5/15 min) at the start: ${startLoad}; figures measured while other processes used more than ${MAX_OTHER_CORES} of a core get no verdict (BENCH_MAX_OTHER_CORES; without /proc, a load above ${MAX_LOAD}, BENCH_MAX_LOAD)\n`);
  const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());
  for (const [name, bench] of Object.entries(BENCHES)) {
    if (only && !only.includes(name)) continue;
    console.log(`[${name}] load ${loadLine()}`);
    beginSection();
    await bench();
    console.log('');
  }
  console.log(`load average at the end: ${loadLine()}`);
  if (markdown) process.exitCode = writeMarkdown({ startLoad, endLoad: loadLine(), rounds: ROUNDS, only: only ?? null });
}

void main();
