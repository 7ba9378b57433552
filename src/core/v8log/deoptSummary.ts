/**
 * Groups deopts for `summary.json` and the editor: per site (where the bailout happened), and per
 * function (for a CodeLens above each function).
 */
import type { DeoptSummaryEntry, SourcePosition } from '../summary/types';
import { tierLabel } from './codeState';
import type { FunctionRef, LogPosition, V8Deopt, V8LogAnalysis } from './types';
import { functionKey } from './functionIndex';

/** V8 names top-level code and anonymous functions with an empty string; so do we, readably. */
export function displayName(fn: FunctionRef | null): string {
  if (fn === null) return '(unknown)';
  return fn.name === '' ? '(anonymous)' : fn.name;
}

/**
 * One entry per (url, innermost line, column, kind, reason, inlinedAt chain), most frequent first,
 * then by position. A deopt V8 could not place (`<unknown>`) gets url "" and line/column 0. The
 * same site can deopt in Maglev and in TurboFan code (Node 24): `tier` is the first one seen.
 */
export function summarizeDeopts(analysis: V8LogAnalysis): DeoptSummaryEntry[] {
  const groups = new Map<string, DeoptSummaryEntry>();
  for (const d of analysis.deopts) {
    const where = d.position ?? { url: '', line: 0, column: 0 };
    const inlinedAt = d.inlinedAt.map(plainPosition);
    const key = JSON.stringify([where.url, where.line, where.column, d.kind, d.reason, inlinedAt]);
    const entry = groups.get(key);
    // Deopts read from the code trace have no time (NaN): reported as null.
    const time = Number.isFinite(d.timeMs) ? d.timeMs : null;
    if (entry !== undefined) {
      entry.count++;
      if (time !== null) {
        entry.firstMs = entry.firstMs === null ? time : Math.min(entry.firstMs, time);
        entry.lastMs = entry.lastMs === null ? time : Math.max(entry.lastMs, time);
      }
      entry.tier ??= d.tier === null ? null : tierLabel(d.tier);
      continue;
    }
    groups.set(key, {
      url: where.url,
      line: where.line,
      column: where.column,
      function: displayName(d.function),
      optimizedFunction: displayName(d.optimizedFunction),
      kind: d.kind,
      reason: d.reason,
      count: 1,
      inlinedAt,
      firstMs: time,
      lastMs: time,
      tier: d.tier === null ? null : tierLabel(d.tier),
    });
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

export interface ReasonCount {
  kind: string;
  reason: string;
  count: number;
}

export interface FunctionDeopts extends SourcePosition {
  /** Function name (`(anonymous)` for top-level code and anonymous functions); position = its start. */
  function: string;
  /** Tiers the function reached ("Ignition", "Sparkplug", "Maglev", "TurboFan"), lowest first. */
  tiers: string[];
  /** How often this function's own optimized code was thrown away. */
  deoptCount: number;
  /** Those deopts by kind and reason, most frequent first. */
  reasons: ReasonCount[];
  /** Deopts at positions inside this function while it was inlined into another one. */
  inlinedDeoptCount: number;
  /**
   * Whether Maglev/TurboFan code for it was created after its last deopt (in the same isolate):
   * false means it stayed deoptimized; null when its own code never deopted.
   */
  reoptimized: boolean | null;
  /** Optimizations after the first deopt: a count that keeps growing is a deopt loop. */
  reoptimizations: number;
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
      lastByIsolate.set(d.isolate, Math.max(lastByIsolate.get(d.isolate) ?? -Infinity, d.timeMs));
      firstByIsolate.set(d.isolate, Math.min(firstByIsolate.get(d.isolate) ?? Infinity, d.timeMs));
    }
    const reoptimizedAfter = (iso: string, t: number) => optimizations.some((o) => o.isolate === iso && o.timeMs > t);
    out.push({
      function: displayName(ref),
      url: ref.url,
      line: ref.line,
      column: ref.column,
      tiers: (fn?.tiers ?? []).map(tierLabel),
      deoptCount: own.length,
      reasons: countReasons(own),
      inlinedDeoptCount: inlined,
      reoptimized: own.length === 0 ? null : [...lastByIsolate].some(([iso, last]) => reoptimizedAfter(iso, last)),
      reoptimizations: optimizations.filter((o) => o.timeMs > (firstByIsolate.get(o.isolate) ?? Infinity)).length,
      lastDeoptMs: own.length === 0 ? null : [...lastByIsolate.values()].reduce((a, b) => Math.max(a, b)),
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

function countReasons(deopts: readonly V8Deopt[]): ReasonCount[] {
  const counts = new Map<string, ReasonCount>();
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

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
