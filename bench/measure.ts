/**
 * How `npm run bench` measures and reports, so that anyone can rerun a figure and get it within
 * its printed range: every figure is timed against its baseline in the same rounds, in an order
 * rotated each round (drift and warm caches hit every arm alike), and printed as a median with
 * [min–max] and the load average while it was measured. A figure measured with the 1-minute load
 * above BENCH_MAX_LOAD (default 1, a quiet 2-core machine) is marked, and `--markdown` refuses to
 * write such figures into the README.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { performance } from 'node:perf_hooks';
import { median } from '../src/core/util/stats';

export const MAX_LOAD = Number(process.env.BENCH_MAX_LOAD ?? 1);

export interface Arm {
  name: string;
  /** One measurement: returns its figure (ms, or whatever the bench measures). */
  run(): number | Promise<number>;
}

/** `arms` rotated by `round`: round 0 runs a, b, c; round 1 b, c, a; … */
export function rotated<T>(arms: readonly T[], round: number): T[] {
  const k = round % arms.length;
  return [...arms.slice(k), ...arms.slice(0, k)];
}

/** Each arm `rounds` times, interleaved in rotated order, after one unmeasured warm-up round. */
export async function interleave(arms: readonly Arm[], rounds: number, warmup = true): Promise<Record<string, number[]>> {
  if (warmup) for (const arm of arms) await arm.run();
  const out: Record<string, number[]> = Object.fromEntries(arms.map((a) => [a.name, [] as number[]]));
  for (let i = 0; i < rounds; i++) for (const arm of rotated(arms, i)) out[arm.name]!.push(await arm.run());
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
  /** The 1-minute load average before and after the figure was measured. */
  load: [number, number];
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
  figures.push(figure);
  const load = Math.max(...figure.load);
  const verdict = figure.met === null ? '' : load > MAX_LOAD ? `  (load ${load.toFixed(2)} > ${MAX_LOAD}: not a headline figure, no verdict)` : figure.met ? '  OK' : '  MISSED';
  console.log(`  → ${figure.what}: ${figure.result}${figure.baseline ? ` (baseline: ${figure.baseline})` : ''}; target ${figure.target}${verdict}`);
}

export const ok = (met: boolean) => (met ? 'OK' : 'MISSED');

export function machineLine(): string {
  const cpu = cpus();
  return `${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${cpu.length} cores, ${Math.round(totalmem() / 2 ** 30)} GB`;
}

export function loadLine(): string {
  return loadavg().map((l) => l.toFixed(2)).join(' / ');
}
