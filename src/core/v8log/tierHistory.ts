/**
 * The hottest functions' tier history: each optimization V8 finished for them (Maglev, TurboFan) and
 * each deopt of their own optimized code, in time order, from the code traces dated by the agent's
 * readings (see run/traceClock.ts), or in trace order when not dated. What Deopt Explorer shows per
 * function, joined with the CPU profile's time: a hot function that stayed deoptimized, or never got
 * optimized code of its own, is the first thing to look at.
 */
import type { CpuFunctionSummary, TierEvent, TierHistory, TierHistoryEntry } from '../../shared/model/summary';
import { tierLabel } from './codeState';
import { urlToPath } from './sourcePosition';
import type { FunctionRef, V8LogAnalysis } from './types';
import { round } from '../util/stats';

/** Functions listed, hottest first by self time. */
export const TIER_HISTORY_FUNCTIONS = 30;

const placeKey = (url: string, line: number, column: number) => `${urlToPath(url)}\u0000${line}\u0000${column}`;
const refKey = (ref: FunctionRef) => placeKey(ref.url, ref.line, ref.column);

/** null when the run has no optimizations at all (no `--trace-opt` trace was read). */
export function buildTierHistory(analysis: V8LogAnalysis, hot: readonly CpuFunctionSummary[]): TierHistory | null {
  const optimizations = analysis.functions.flatMap((f) => f.optimizations.map((o) => ({ fn: f, ...o })));
  if (optimizations.length === 0) return null;
  const timed = optimizations.some((o) => Number.isFinite(o.timeMs));
  const events = new Map<string, (TierEvent & { order: number })[]>();
  const add = (key: string, e: TierEvent & { order: number }) => {
    const list = events.get(key);
    if (list) list.push(e);
    else events.set(key, [e]);
  };
  for (const o of optimizations) {
    if (o.fn.line === 0) continue;
    add(refKey(o.fn), { ...dated(o.timeMs, o.timeErrorMs), kind: 'optimized', tier: tierLabel(o.tier), order: o.seq ?? o.timeMs });
  }
  for (const d of analysis.deopts) {
    const fn = d.optimizedFunction;
    if (!fn || fn.line === 0) continue;
    add(refKey(fn), {
      ...dated(d.timeMs, d.timeErrorMs),
      kind: 'deopt',
      tier: d.tier ? tierLabel(d.tier) : 'optimized code',
      reason: d.reason,
      ...(d.process !== undefined ? { process: d.process } : {}),
      order: d.seq ?? d.timeMs,
    });
  }
  const functions: TierHistoryEntry[] = hot
    .filter((f) => f.url !== '' && f.line > 0)
    .slice(0, TIER_HISTORY_FUNCTIONS)
    .map((f) => entryOf(f, events.get(placeKey(f.url, f.line, f.column)) ?? [], timed));
  return { timed, functions, optimizationsPerSecond: timed ? perSecond(optimizations.map((o) => o.timeMs)) : null };
}

/** An event's time, and how far off it can be when that is known (a code trace dated between the app's work). */
function dated(timeMs: number, errorMs: number | undefined): Pick<TierEvent, 'atMs' | 'atErrorMs'> {
  if (!Number.isFinite(timeMs)) return { atMs: null };
  return { atMs: round(timeMs, 1), ...(errorMs !== undefined && Number.isFinite(errorMs) ? { atErrorMs: round(errorMs, 1) } : {}) };
}

function entryOf(f: CpuFunctionSummary, raw: (TierEvent & { order: number })[], timed: boolean): TierHistoryEntry {
  // Trace order within one reading (and for traces without readings): V8 wrote them in that order.
  const sorted = [...raw].sort((a, b) => (timed && a.atMs !== null && b.atMs !== null && a.atMs !== b.atMs ? a.atMs - b.atMs : a.order - b.order));
  const events: TierEvent[] = sorted.map(({ order: _, ...e }) => e);
  let tierNow: string | null = null;
  let deopts = 0;
  let reoptimizations = 0;
  for (const e of events) {
    if (e.kind === 'deopt') {
      deopts++;
      tierNow = null;
    } else {
      if (deopts > 0) reoptimizations++;
      tierNow = e.tier;
    }
  }
  const firstAt = (test: (e: TierEvent) => boolean) => events.find((e) => e.kind === 'optimized' && test(e))?.atMs ?? null;
  return {
    function: f.name,
    url: f.url,
    line: f.line,
    column: f.column,
    selfMs: f.selfMs,
    totalMs: f.totalMs,
    events,
    tierNow,
    firstOptimizedMs: firstAt(() => true),
    firstTurboFanMs: firstAt((e) => e.tier === 'TurboFan'),
    deopts,
    reoptimizations,
    traced: !(f.name === '(anonymous)' && events.length === 0),
  };
}

function perSecond(times: number[]): number[] {
  const finite = times.filter((t) => Number.isFinite(t) && t >= 0);
  if (finite.length === 0) return [];
  const out = new Array<number>(Math.floor(Math.max(...finite) / 1000) + 1).fill(0);
  for (const t of finite) out[Math.floor(t / 1000)]!++;
  return out;
}

