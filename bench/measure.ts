/**
 * How `npm run bench` measures and reports, so that anyone can rerun a figure and get it within
 * its printed range: every figure is timed against its baseline in the same rounds, in an order
 * that changes each round so every arm runs in every position and after every other arm equally
 * often (drift, warm caches and what a run leaves behind hit every arm alike), and printed as a median with
 * [min–max] and the load while it was measured. A quiet machine is one where other processes than
 * the bench's own used little CPU while a figure was measured: the load average cannot say it, since
 * on 2 cores the bench's own target and load generator (or Chromium) make it 1-2 by themselves. So
 * each figure records the CPU the rest of the machine used meanwhile (on Linux: /proc/stat's busy time
 * minus this process's and its descendants'); a figure measured with more than BENCH_MAX_OTHER_CORES
 * (default 0.3) of a core of other work, or, where that cannot be read, with the 1-minute load above
 * BENCH_MAX_LOAD (default 1), is marked, and `--markdown` refuses to write it into the README.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { median } from '../src/core/util/stats';
import { otherCoresSince, readCpu, type CpuReading } from '../scripts/otherWork';

export const MAX_LOAD = Number(process.env.BENCH_MAX_LOAD ?? 1);
export const MAX_OTHER_CORES = Number(process.env.BENCH_MAX_OTHER_CORES ?? 0.3);

let windowStart: CpuReading | null = null;

/** Starts the window a section's figures are judged over (run.ts calls it before each section). */
export function beginSection(): void {
  windowStart = readCpu();
}

/** Cores of other processes' CPU since the section began; null where /proc cannot say. */
function otherCoresSinceStart(): number | null {
  return windowStart ? otherCoresSince(windowStart) : null;
}

export interface Arm {
  name: string;
  /** One measurement: returns its figure (ms, or whatever the bench measures). */
  run(): number | Promise<number>;
}

/**
 * The order of `arms` in round `round`: a Williams design, so over every block of rounds (n of
 * them for an even number of arms, 2n for an odd one) each arm runs in each position and follows
 * every other arm equally often. A plain rotation (a, b, c; b, c, a; …) keeps the cycle: b would
 * always follow a, and whatever a run leaves behind would weigh on the same arm in every round (seen
 * in the overhead bench: bare node ran about 5% sooner after a V8 Lens run than after another).
 */
export function roundOrder<T>(arms: readonly T[], round: number): T[] {
  const n = arms.length;
  if (n <= 1) return [...arms];
  // The first row is 0, 1, n-1, 2, n-2, …; row k adds k to each (mod n); for an odd n the same
  // rows reversed follow, so that each ordered pair of arms occurs as often as every other.
  const first: number[] = [0];
  for (let lo = 1, hi = n - 1; first.length < n; ) first.push(first.length % 2 === 1 ? lo++ : hi--);
  const r = round % (n % 2 === 0 ? n : 2 * n);
  const row = first.map((i) => (i + r) % n);
  return (r >= n ? row.reverse() : row).map((i) => arms[i]!);
}

/** Each arm `rounds` times, interleaved in a balanced order (roundOrder), after one unmeasured warm-up round. */
export async function interleave(arms: readonly Arm[], rounds: number, warmup = true): Promise<Record<string, number[]>> {
  if (warmup) for (const arm of arms) await arm.run();
  const out: Record<string, number[]> = Object.fromEntries(arms.map((a) => [a.name, [] as number[]]));
  for (let i = 0; i < rounds; i++) for (const arm of roundOrder(arms, i)) out[arm.name]!.push(await arm.run());
  return out;
}

/** Wall time of `fn`, ms. */
export async function timed(fn: () => unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  return { median: median([...values]), min: Math.min(...values), max: Math.max(...values) };
}

/** "412 ms [398–460]". */
export function fmtSpread(values: readonly number[], unit = 'ms', digits = 0): string {
  const s = spread(values);
  const n = (v: number) => v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `${n(s.median)}${unit ? ` ${unit}` : ''} [${n(s.min)}–${n(s.max)}]`;
}

/** The ratio of two arms measured in the same rounds: median of the per-round ratios, with their range. */
export function pairedRatio(values: readonly number[], baseline: readonly number[]): number[] {
  return values.map((v, i) => v / baseline[i]!);
}

/** One row of the README's table. */
export interface Figure {
  what: string;
  baseline: string;
  result: string;
  target: string;
  /** Whether the target is met; null when the figure has none. */
  met: boolean | null;
  /** The 1-minute load average before and after the figure was measured (the bench's own processes included). */
  load: [number, number];
  /** Cores of CPU used by processes other than the bench's while it was measured (set by report); null: unknown. */
  otherCores?: number | null;
  /** A size, not a time: the machine's load does not change it, so it is never too busy for a verdict. */
  untimed?: boolean;
  /**
   * Set when the figure's uncertainty spans its target (the point is on one side, part of its
   * interval on the other): the run cannot say met or missed, and says why instead of a verdict.
   */
  unsettled?: string;
}

/**
 * A verdict from a figure's point and its interval against an upper limit: met when the whole
 * interval is within it, missed when the whole interval is beyond it, else unsettled (with why).
 */
export function intervalVerdict(point: number, [lo, hi]: [number, number], limit: number): Pick<Figure, 'met' | 'unsettled'> {
  if (lo > limit) return { met: false };
  if (point <= limit && hi <= limit) return { met: true };
  return { met: point <= limit, unsettled: `its 90% interval, ${lo.toFixed(1)} to ${hi.toFixed(1)}, spans the target` };
}

/** Why a figure gets no verdict (measured on a busy machine), or null. */
export function tooBusy(f: Figure): string | null {
  if (f.untimed) return null;
  if (f.otherCores !== undefined && f.otherCores !== null) {
    return f.otherCores > MAX_OTHER_CORES ? `other work ${f.otherCores.toFixed(2)} cores > ${MAX_OTHER_CORES}` : null;
  }
  const load = Math.max(...f.load);
  return load > MAX_LOAD ? `load ${load.toFixed(2)} > ${MAX_LOAD}` : null;
}

export const figures: Figure[] = [];

/** Measures `fn` under a load watch: the load average before and after. */
export async function underLoadWatch<T>(fn: () => Promise<T> | T): Promise<{ value: T; load: [number, number] }> {
  const before = loadavg()[0]!;
  const value = await fn();
  return { value, load: [before, loadavg()[0]!] };
}

/**
 * Records a figure and prints its verdict line; a figure measured above MAX_LOAD is marked as not a
 * headline figure (its target verdict is not given).
 */
export function report(figure: Figure): void {
  figure.otherCores = figure.untimed ? null : otherCoresSinceStart();
  figures.push(figure);
  const busy = tooBusy(figure);
  const verdict = figure.met === null ? '' : busy ? `  (${busy}: not a headline figure, no verdict)` : figure.unsettled ? `  UNSETTLED (${figure.unsettled})` : figure.met ? '  OK' : '  MISSED';
  const other = figure.otherCores === null || figure.otherCores === undefined ? '' : `; other work ${figure.otherCores.toFixed(2)} cores`;
  console.log(`  → ${figure.what}: ${figure.result}${figure.baseline ? ` (baseline: ${figure.baseline})` : ''}; target ${figure.target}${verdict}  [load ${figure.load.map((l) => l.toFixed(2)).join('–')}${other}]`);
}

export const ok = (met: boolean) => (met ? 'OK' : 'MISSED');

export function machineLine(): string {
  const cpu = cpus();
  return `${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${Math.round(totalmem() / 2 ** 30)} GB`;
}

export function loadLine(): string {
  return loadavg().map((l) => l.toFixed(2)).join(' / ');
}
