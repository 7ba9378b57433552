/**
 * What each preset costs the program it observes (issue 20, item 5), measured on three kinds of
 * program against bare `node`, `node --cpu-prof` and `node --trace-gc`, every arm in the same
 * rounds, interleaved in a balanced order (roundOrder):
 *  - http:  the demo HTTP service (examples/http-service) under the same load (the lab's load
 *           runner: 10 connections, 2 s warm-up, then the measured window): req/s;
 *  - cpu:   a fixed amount of CPU work (bench/programs/cpu-work.js);
 *  - alloc: a fixed amount of allocation with survivors (bench/programs/alloc-work.js);
 *  - startup: when a script's first line runs (bench/programs/first-line.js), in ms, no budget:
 *           the README's start-up figures;
 * the fixed-work programs time themselves, from their process's start to the end of the work (so a
 * preload's start-up counts, the CLI's own time does not). A figure is the arm's throughput as a
 * share of bare node's (1.00 = free): its median over bare node's median, with the range of the
 * rounds' own ratios. The budgets: the
 * default preset at most 3 points below `--cpu-prof` alone, GC-only at most 2 below `--trace-gc`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { startLoad } from '../src/core/load/loadGenerator';
import { median } from '../src/core/util/stats';
import type { Summary } from '../src/shared/model/summary';
import { fmtSpread, interleave, intervalVerdict, report } from './measure';
import { tempDir } from '../scripts/tempDirs';

const REPO = join(__dirname, '..');
const CLI = join(REPO, 'dist', 'cli.js');
const LOAD_RUNNER = join(REPO, 'dist', 'load-runner.js');
const SERVICE = join(REPO, 'examples', 'http-service', 'server.js');
const PROGRAMS = { cpu: join(__dirname, 'programs', 'cpu-work.js'), alloc: join(__dirname, 'programs', 'alloc-work.js') } as const;
const FIRST_LINE = join(__dirname, 'programs', 'first-line.js');

export type Kind = 'http' | 'cpu' | 'alloc' | 'startup';
/** An arm: plain Node with these flags, or V8 Lens with this preset. */
type ArmSpec = { name: string; node: string[] } | { name: string; preset: string; extra?: string[] };

const ALL_ARMS: ArmSpec[] = [
  { name: 'node', node: [] },
  { name: 'node --cpu-prof', node: ['--cpu-prof'] },
  { name: 'node --trace-gc', node: ['--trace-gc'] },
  { name: 'v8-lens default', preset: 'cpu-gc-deopts' },
  { name: 'v8-lens cpu-gc', preset: 'cpu-gc' },
  { name: 'v8-lens gc', preset: 'gc' },
  // BENCH_OVERHEAD_ALLOC_INTERVALS=2097152,4194304: the default preset at other allocation intervals too.
  ...(process.env.BENCH_OVERHEAD_ALLOC_INTERVALS?.split(',') ?? []).map((b) => ({ name: `default @${Number(b) / 1024} KB`, preset: 'cpu-gc-deopts', extra: ['--alloc-interval', b] })),
];

/**
 * BENCH_OVERHEAD_ARMS='node --cpu-prof,v8-lens default': only these arms besides bare node, so the
 * same minutes give more rounds (a narrower interval) for one budget. A budget is judged only when
 * both of its arms ran.
 */
function chosenArms(): ArmSpec[] {
  const names = process.env.BENCH_OVERHEAD_ARMS?.split(',').map((n) => n.trim()).filter((n) => n !== '');
  if (!names) return ALL_ARMS;
  const unknown = names.filter((n) => !ALL_ARMS.some((a) => a.name === n));
  if (unknown.length > 0) throw new Error(`BENCH_OVERHEAD_ARMS: no arm named ${unknown.join(', ')} (arms: ${ALL_ARMS.map((a) => a.name).join(', ')})`);
  return ALL_ARMS.filter((a) => a.name === 'node' || names.includes(a.name));
}
const ARMS = chosenArms();
const ran = (...names: string[]) => names.every((n) => ARMS.some((a) => a.name === n));

const dir = tempDir('v8-lens-overhead-');
let serial = 0;

/** A fixed-work program's own time (ms from its process's start to the end of its work). */
function workMs(arm: ArmSpec, program: string): number {
  return programMs(arm, program, /bench-work-done ([\d.]+) ms/);
}

/** What a program printed as `marker`'s ms, run bare or under V8 Lens. */
function programMs(arm: ArmSpec, program: string, marker: RegExp): number {
  const out = join(dir, `run-${serial++}`);
  const args =
    'preset' in arm
      ? [CLI, 'profile', '--preset', arm.preset, ...(arm.extra ?? []), '--out', out, '--', program]
      : [...arm.node.map((f) => (f === '--cpu-prof' ? `--cpu-prof-dir=${out}` : f)), ...(arm.node.includes('--cpu-prof') ? ['--cpu-prof'] : []), program];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  const m = marker.exec(r.stdout);
  if (r.status !== 0 || !m) throw new Error(`${arm.name} on ${program} failed: ${r.stderr.slice(-400)}`);
  return Number(m[1]);
}

const HTTP = { warmupSeconds: 2, seconds: Number(process.env.BENCH_SERVICE_SECONDS ?? 5), connections: 10 };

/** req/s of the demo service in the measured window, plain Node driven by the lab's load runner. */
async function plainServiceRps(flags: string[]): Promise<number> {
  const out = join(dir, `run-${serial++}`);
  const child = spawn(process.execPath, [...flags.map((f) => (f === '--cpu-prof' ? `--cpu-prof-dir=${out}` : f)), ...(flags.includes('--cpu-prof') ? ['--cpu-prof'] : []), SERVICE], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      text += d;
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(text);
      if (m) resolve(`${m[0]}/`);
    });
    child.once('exit', () => reject(new Error('the demo service exited before it listened')));
  });
  const gen = startLoad(
    LOAD_RUNNER,
    { url, method: 'GET', headers: {}, body: null, connections: HTTP.connections, warmupSeconds: HTTP.warmupSeconds, duration: HTTP.seconds, rate: null, timeout: 10 },
    { onPhase: () => {}, onTick: () => {}, onResult: () => {} },
  );
  const outcome = await gen.done;
  child.kill('SIGINT');
  await new Promise((resolve) => child.once('close', resolve));
  if (!outcome.ok) throw new Error(`load failed: ${outcome.reason}`);
  return outcome.figures.rps;
}

function profiledServiceRps(preset: string): number {
  const out = join(dir, `run-${serial++}`);
  const r = spawnSync(
    process.execPath,
    [CLI, 'profile', '--preset', preset, '--out', out, '--url', 'auto', '--warmup', String(HTTP.warmupSeconds), '--duration', String(HTTP.seconds), '--connections', String(HTTP.connections), '--', SERVICE],
    { encoding: 'utf8', maxBuffer: 256 * 2 ** 20 },
  );
  const rps = r.status === 0 ? (JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as Summary).load?.figures?.rps : undefined;
  if (rps === undefined) throw new Error(`v8-lens --preset ${preset} on the demo service failed: ${r.stderr.slice(-400)}`);
  return rps;
}

/**
 * BENCH_SETTLE_MB (default 768): before every run a throwaway process writes this much memory and
 * exits, so every arm starts with the same free memory. On this VM a process that allocates ran
 * about 10% sooner right after a V8 Lens run (whose CLI had just used and freed a few hundred MB)
 * than right after a plain Node run, and 8% sooner after the same throwaway process: what the
 * previous run left weighed more than most budgets. 0 turns it off.
 */
const SETTLE_BYTES = Number(process.env.BENCH_SETTLE_MB ?? 768) * 2 ** 20;

function settleMemory(): void {
  if (SETTLE_BYTES <= 0) return;
  const r = spawnSync(process.execPath, ['-e', `Buffer.allocUnsafe(${SETTLE_BYTES}).fill(1)`], { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`BENCH_SETTLE_MB: writing ${SETTLE_BYTES / 2 ** 20} MB failed (${r.signal ?? r.status})`);
}

/** Throughput of one arm: req/s, or 1000 / ms of the fixed work. */
async function throughput(kind: Exclude<Kind, 'startup'>, arm: ArmSpec): Promise<number> {
  settleMemory();
  if (kind === 'http') return 'preset' in arm ? profiledServiceRps(arm.preset) : plainServiceRps(arm.node);
  return 1000 / workMs(arm, PROGRAMS[kind]);
}

/**
 * BENCH_OVERHEAD_RAW=DIR: every run's figure as it is measured (a throughput, or the start-up's ms),
 * one JSON line each in DIR/overhead-<kind>.jsonl (round -1 is the warm-up), so a long run can be
 * read again with another estimator, or in part if it is stopped. DIR is made when missing.
 */
function rawKept(kind: Kind, arm: string, run: () => Promise<number> | number): () => Promise<number> {
  const rawDir = process.env.BENCH_OVERHEAD_RAW;
  if (!rawDir) return async () => run();
  mkdirSync(rawDir, { recursive: true });
  let round = -1;
  return async () => {
    const value = await run();
    appendFileSync(join(rawDir, `overhead-${kind}.jsonl`), `${JSON.stringify({ arm, round: round++, value, at: Date.now(), load1: loadavg()[0] })}\n`);
    return value;
  };
}

const KIND_LABEL: Record<Kind, string> = {
  http: 'demo HTTP service under load (req/s)',
  cpu: 'CPU-bound script, fixed work (its own time)',
  alloc: 'allocation-heavy script, fixed work (its own time)',
  startup: "start-up (when a script's first line runs)",
};

/**
 * Rounds per kind: a fixed-work program ends in about a second and its time moves ±10% from run to
 * run on 2 cores (the GC's helper threads share them; the allocation-heavy one's rounds range over
 * 30%), against budgets of 2–3 points: it gets 31 rounds, the HTTP service, whose runs are 7 s of
 * steady load each, 5.
 */
export interface OverheadRounds {
  http: number;
  fixedWork: number;
}

export async function benchOverhead(rounds: OverheadRounds, kinds: readonly Kind[] = ['http', 'cpu', 'alloc', 'startup']): Promise<void> {
  for (const kind of kinds) {
    if (kind === 'startup') {
      await benchStartup(rounds.fixedWork);
      continue;
    }
    const before = loadavg()[0]!;
    const kindRounds = kind === 'http' ? rounds.http : rounds.fixedWork;
    console.log(`overhead on the ${KIND_LABEL[kind]}: ${ARMS.length} arms × ${kindRounds} balanced rounds${kind === 'http' ? ` of ${HTTP.seconds} s after ${HTTP.warmupSeconds} s warm-up, ${HTTP.connections} connections` : ''}`);
    const t = await interleave(
      ARMS.map((arm) => ({ name: arm.name, run: rawKept(kind, arm.name, () => throughput(kind, arm)) })),
      kindRounds,
    );
    const bare = t.node!;
    const share = (name: string) => t[name]!.map((v, i) => v / bare[i]!);
    // An arm's cost: its median throughput against bare node's median, so one slow bare run does
    // not move every arm of its round; the rounds' own ratios give the range.
    const kept = (name: string) => median(t[name]!) / median(bare);
    const keptText = (name: string) => {
      const s = share(name);
      return `${kept(name).toFixed(3)} [${Math.min(...s).toFixed(3)}–${Math.max(...s).toFixed(3)}]`;
    };
    for (const arm of ARMS) {
      console.log(`  ${arm.name.padEnd(20)} ${kind === 'http' ? fmtSpread(t[arm.name]!, 'req/s') : fmtSpread(t[arm.name]!.map((v) => 1000 / v), 'ms')}   ${arm.name === 'node' ? '' : `kept ${keptText(arm.name)} of bare node`}`);
    }
    const load: [number, number] = [before, loadavg()[0]!];
    const points = (a: string, b: string) => (kept(b) - kept(a)) * 100;
    const within = ([lo, hi]: [number, number]) => `(90% of resampled rounds: ${lo.toFixed(1)} to ${hi.toFixed(1)})`;
    if (ran('v8-lens default', 'node --cpu-prof')) {
      const defaultCost = points('v8-lens default', 'node --cpu-prof');
      const defaultInterval = pointsInterval(t, 'v8-lens default', 'node --cpu-prof');
      report({
        what: `default preset vs \`node --cpu-prof\` alone: ${KIND_LABEL[kind]} (${kindRounds} balanced rounds)`,
        baseline: `--cpu-prof keeps ${keptText('node --cpu-prof')} of bare node`,
        result: `default keeps ${keptText('v8-lens default')}: **${defaultCost.toFixed(1)} points** more ${within(defaultInterval)}${ran('v8-lens cpu-gc') ? `; cpu-gc ${keptText('v8-lens cpu-gc')}` : ''}`,
        target: '≤ 3 points',
        ...intervalVerdict(defaultCost, defaultInterval, 3),
        load,
      });
    }
    if (!ran('v8-lens gc', 'node --trace-gc')) continue;
    const gcCost = points('v8-lens gc', 'node --trace-gc');
    const gcInterval = pointsInterval(t, 'v8-lens gc', 'node --trace-gc');
    report({
      what: `GC-only preset vs \`node --trace-gc\`: ${KIND_LABEL[kind]}`,
      baseline: `--trace-gc keeps ${keptText('node --trace-gc')}`,
      result: `gc preset keeps ${keptText('v8-lens gc')}: **${gcCost.toFixed(1)} points** more ${within(gcInterval)}`,
      target: '≤ 2 points',
      ...intervalVerdict(gcCost, gcInterval, 2),
      load,
    });
  }
}

/**
 * When a script's first line runs, from its process's start (the CLI's own start-up is not in it),
 * for every arm: what the preload adds before the app runs. No budget; the README quotes it. A
 * difference is the medians' difference, with the range of the rounds' own differences.
 */
async function benchStartup(rounds: number): Promise<void> {
  const before = loadavg()[0]!;
  console.log(`overhead on the ${KIND_LABEL.startup}: ${ARMS.length} arms × ${rounds} balanced rounds`);
  const t = await interleave(
    ARMS.map((arm) => ({ name: arm.name, run: rawKept('startup', arm.name, () => (settleMemory(), programMs(arm, FIRST_LINE, /bench-first-line ([\d.]+) ms/))) })),
    rounds,
  );
  for (const arm of ARMS) console.log(`  ${arm.name.padEnd(20)} ${fmtSpread(t[arm.name]!, 'ms', 1)}`);
  const load: [number, number] = [before, loadavg()[0]!];
  const later = (arm: string, baseline: string) => {
    const each = t[arm]!.map((v, i) => v - t[baseline]![i]!);
    return `**${(median(t[arm]!) - median(t[baseline]!)).toFixed(1)} ms** later [${Math.min(...each).toFixed(1)} to ${Math.max(...each).toFixed(1)}]`;
  };
  const pairs: Array<[string, string]> = [
    ['v8-lens default', 'node --cpu-prof'],
    ['v8-lens gc', 'node --trace-gc'],
  ];
  for (const [arm, baseline] of pairs.filter((p) => ran(...p))) {
    report({
      what: `start-up: ${arm.replace('v8-lens ', '')} preset vs \`${baseline}\`, when a script's first line runs (${rounds} balanced rounds)`,
      baseline: `${baseline} ${fmtSpread(t[baseline]!, 'ms', 1)}, bare node ${fmtSpread(t.node!, 'ms', 1)}`,
      result: `${fmtSpread(t[arm]!, 'ms', 1)}: ${later(arm, baseline)}`,
      target: 'none (the README quotes it)',
      met: null,
      load,
    });
  }
}

/**
 * How far an arm's points against a baseline arm move with the luck of the rounds: the 5th and 95th
 * percentile of the same figure over 2,000 resamplings of whole rounds (each round keeps its arms
 * together). A fixed seed: the same rounds give the same interval.
 */
function pointsInterval(t: Record<string, number[]>, arm: string, baseline: string): [number, number] {
  const n = t.node!.length;
  let seed = 20;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const figures: number[] = [];
  for (let r = 0; r < 2000; r++) {
    const picked = Array.from({ length: n }, () => Math.floor(random() * n));
    const med = (name: string) => median(picked.map((i) => t[name]![i]!));
    const bare = med('node');
    figures.push(((med(baseline) - med(arm)) / bare) * 100);
  }
  figures.sort((a, b) => a - b);
  return [figures[Math.floor(0.05 * figures.length)]!, figures[Math.floor(0.95 * figures.length) - 1]!];
}
