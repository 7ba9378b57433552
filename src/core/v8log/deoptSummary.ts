/**
 * Groups deopts for `summary.json` and the editor: per site (where the bailout happened), and per
 * function (for a CodeLens above each function).
 */
import {
  MAX_OPTIMIZED_FUNCTIONS,
  type DeoptFunctionSummary,
  type DeoptReasonCount,
  type DeoptSummaryEntry,
  type OptimizedFunctionSummary,
  type SourcePosition,
} from '../../shared/model/summary';
import { sortTiers, tierLabel } from './codeState';
import type { FunctionRef, LogPosition, V8Deopt, V8LogAnalysis } from './types';
import { functionKey } from './functionIndex';
import { compareText } from '../util/compareText';

/**
 * V8 names top-level code and anonymous functions with an empty string; so do we, readably. A
 * function can be unknown only for a deopt from the V8 log whose code V8 did not log (code traces
 * always name it): the name says so rather than a bare "(unknown)".
 */
export const FUNCTION_NOT_LOGGED = '(code not logged)';
export function displayName(fn: FunctionRef | null): string {
  if (fn === null) return FUNCTION_NOT_LOGGED;
  return fn.name === '' ? '(anonymous)' : fn.name;
}

/**
 * One entry per (url, innermost line, column, kind, reason, inlinedAt chain, function, optimized
 * function), most frequent first, then by position. A deopt V8 could not place (`<unknown>`, common
 * for lazy deopts) gets url "" and line/column 0, and is told apart by its functions: 104 lazy deopts
 * of many functions are not one row. The same site can deopt in Maglev and in TurboFan code (Node
 * 24): `tier` is the first one seen. Process, source and load-window phase are gathered per entry.
 */
export function summarizeDeopts(analysis: V8LogAnalysis): DeoptSummaryEntry[] {
  const groups = new Map<string, DeoptSummaryEntry>();
  for (const d of analysis.deopts) {
    const where = d.position ?? { url: '', line: 0, column: 0 };
    const inlinedAt = d.inlinedAt.map(plainPosition);
    const key = JSON.stringify([where.url, where.line, where.column, d.kind, d.reason, inlinedAt, displayName(d.function), displayName(d.optimizedFunction)]);
    let entry = groups.get(key);
    // Deopts read from the code trace have no time (NaN): reported as null.
    const time = Number.isFinite(d.timeMs) ? d.timeMs : null;
    if (entry !== undefined) {
      entry.count++;
      if (time !== null) {
        entry.firstMs = entry.firstMs === null ? time : Math.min(entry.firstMs, time);
        entry.lastMs = entry.lastMs === null ? time : Math.max(entry.lastMs, time);
      }
      entry.tier ??= d.tier === null ? null : tierLabel(d.tier);
      addDetails(entry, d);
      continue;
    }
    entry = {
      url: where.url,
      line: where.line,
      column: where.column,
      function: displayName(d.function),
      functionStart: d.function !== null && d.function.line > 0 ? plainPosition(d.function) : null,
      optimizedFunction: displayName(d.optimizedFunction),
      kind: d.kind,
      reason: d.reason,
      count: 1,
      inlinedAt,
      firstMs: time,
      lastMs: time,
      tier: d.tier === null ? null : tierLabel(d.tier),
    };
    groups.set(key, entry);
    addDetails(entry, d);
  }
  return [...groups.values()].sort(
    (a, b) =>
      b.count - a.count ||
      compareText(a.url, b.url) ||
      a.line - b.line ||
      a.column - b.column ||
      compareText(a.kind, b.kind) ||
      compareText(a.reason, b.reason),
  );
}

/** Which processes, sources and load-window phases an entry's deopts came from (only what is known). */
function addDetails(entry: DeoptSummaryEntry, d: V8Deopt): void {
  if (d.process !== undefined && !(entry.processes ??= []).includes(d.process)) entry.processes.push(d.process);
  for (const source of d.sources ?? []) if (!(entry.sources ??= []).includes(source)) entry.sources.push(source);
  if (d.phase !== undefined) {
    entry.beforeWindow = (entry.beforeWindow ?? 0) + (d.phase === 'before' ? 1 : 0);
    entry.afterWindow = (entry.afterWindow ?? 0) + (d.phase === 'after' ? 1 : 0);
  }
}

export type ReasonCount = DeoptReasonCount;

export interface FunctionDeopts extends DeoptFunctionSummary {
  /** Time of its last own deopt; null when none, or when the source has no times (code traces). */
  lastDeoptMs: number | null;
}

/**
 * Per function, for a CodeLens: deopts of its own optimized code, deopts of its code inlined
 * elsewhere, and whether it re-optimized. Functions without deopts are left out. Sorted by
 * total deopts, then position.
 */
export function deoptsByFunction(analysis: V8LogAnalysis): FunctionDeopts[] {
  const fnByKey = new Map(analysis.functions.map((f) => [functionKey(f), f] as const));
  const rows = new Map<string, { ref: FunctionRef; own: V8Deopt[]; inlined: number }>();
  const row = (ref: FunctionRef) => {
    const key = functionKey(ref);
    let r = rows.get(key);
    if (r === undefined) rows.set(key, (r = { ref, own: [], inlined: 0 }));
    return r;
  };
  for (const d of analysis.deopts) {
    if (d.optimizedFunction !== null) row(d.optimizedFunction).own.push(d);
    const inner = d.function;
    if (inner !== null && (d.optimizedFunction === null || functionKey(inner) !== functionKey(d.optimizedFunction))) {
      row(inner).inlined++;
    }
  }
  const out: FunctionDeopts[] = [];
  for (const [key, { ref, own, inlined }] of rows) {
    const fn = fnByKey.get(key);
    const optimizations = fn?.optimizations ?? [];
    const lastByIsolate = new Map<string, number>();
    const firstByIsolate = new Map<string, number>();
    for (const d of own) {
      const at = orderOf(d);
      lastByIsolate.set(d.isolate, Math.max(lastByIsolate.get(d.isolate) ?? -Infinity, at));
      firstByIsolate.set(d.isolate, Math.min(firstByIsolate.get(d.isolate) ?? Infinity, at));
    }
    const reoptimizedAfter = (iso: string, t: number) => optimizations.some((o) => o.isolate === iso && orderOf(o) > t);
    const times = own.map((d) => d.timeMs).filter(Number.isFinite);
    out.push({
      function: displayName(ref),
      url: ref.url,
      line: ref.line,
      column: ref.column,
      tiers: (fn?.tiers ?? []).map(tierLabel),
      deoptCount: own.length,
      reasons: countReasons(own),
      inlinedDeoptCount: inlined,
      // No optimization recorded at all (a code trace without --trace-opt): unknown, not "stayed deoptimized".
      reoptimized: own.length === 0 || optimizations.length === 0 ? null : [...lastByIsolate].some(([iso, last]) => reoptimizedAfter(iso, last)),
      reoptimizations: optimizations.filter((o) => orderOf(o) > (firstByIsolate.get(o.isolate) ?? Infinity)).length,
      lastDeoptMs: times.length === 0 ? null : times.reduce((a, b) => Math.max(a, b)),
    });
  }
  return out.sort(
    (a, b) =>
      b.deoptCount + b.inlinedDeoptCount - (a.deoptCount + a.inlinedDeoptCount) ||
      compareText(a.url, b.url) ||
      a.line - b.line ||
      a.column - b.column,
  );
}

/**
 * The time axis of one isolate: ms from the V8 log, or the order of a code trace (which has no
 * times). The two never meet: a code trace is an isolate of its own.
 */
function orderOf(event: { timeMs: number; seq?: number }): number {
  return event.seq ?? event.timeMs;
}

/** `summary.json`'s `deoptFunctions`: `deoptsByFunction` without the times. */
export function summarizeDeoptFunctions(analysis: V8LogAnalysis): DeoptFunctionSummary[] {
  return deoptsByFunction(analysis).map(({ lastDeoptMs: _, ...row }) => row);
}

/**
 * `summary.json`'s `optimizedFunctions`: functions with Maglev/TurboFan code and a known start that
 * never deopted, neither their own code nor inlined elsewhere (so no function is in both lists).
 * Most optimizations first, then by position; `total` counts them before the cut at `limit`.
 */
export function summarizeOptimizedFunctions(
  analysis: V8LogAnalysis,
  limit = MAX_OPTIMIZED_FUNCTIONS,
): { functions: OptimizedFunctionSummary[]; total: number } {
  const deopted = new Set<string>();
  for (const d of analysis.deopts) {
    if (d.optimizedFunction !== null) deopted.add(functionKey(d.optimizedFunction));
    if (d.function !== null) deopted.add(functionKey(d.function));
  }
  const rows: OptimizedFunctionSummary[] = [];
  for (const fn of analysis.functions) {
    if (fn.optimizations.length === 0 || fn.line <= 0 || deopted.has(functionKey(fn))) continue;
    rows.push({
      function: displayName(fn),
      url: fn.url,
      line: fn.line,
      column: fn.column,
      tiers: sortTiers([...new Set(fn.optimizations.map((o) => o.tier))]).map(tierLabel),
      optimizations: fn.optimizations.length,
    });
  }
  rows.sort((a, b) => b.optimizations - a.optimizations || compareText(a.url, b.url) || a.line - b.line || a.column - b.column);
  return { functions: rows.slice(0, limit), total: rows.length };
}

/** The deopt parts of `summary.json`, and the warning when `optimizedFunctions` was cut. */
export function summarizeDeoptAnalysis(analysis: V8LogAnalysis): {
  deopts: DeoptSummaryEntry[];
  deoptFunctions: DeoptFunctionSummary[];
  optimizedFunctions: OptimizedFunctionSummary[];
  warnings: string[];
} {
  const optimized = summarizeOptimizedFunctions(analysis);
  const warnings =
    optimized.total > optimized.functions.length
      ? [`${optimized.total} functions were optimized and never deoptimized; optimizedFunctions lists the ${optimized.functions.length} optimized most often`]
      : [];
  return { deopts: summarizeDeopts(analysis), deoptFunctions: summarizeDeoptFunctions(analysis), optimizedFunctions: optimized.functions, warnings };
}

function countReasons(deopts: readonly V8Deopt[]): DeoptReasonCount[] {
  const counts = new Map<string, DeoptReasonCount>();
  for (const d of deopts) {
    const key = `${d.kind}\u0000${d.reason}`;
    const c = counts.get(key);
    if (c === undefined) counts.set(key, { kind: d.kind, reason: d.reason, count: 1 });
    else c.count++;
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || compareText(a.reason, b.reason));
}

function plainPosition(p: LogPosition): SourcePosition {
  return { url: p.url, line: p.line, column: p.column };
}
