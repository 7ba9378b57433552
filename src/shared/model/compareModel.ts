/**
 * The compare view's model: two runs (A = base, B = other) built in the extension host
 * (compareModel.ts), rendered by the compare webview. Types and a few pure helpers with no Node
 * imports, so the webview bundle shares them (it re-normalises the tree when the user toggles
 * between milliseconds and shares).
 *
 * Sign convention everywhere: a change is B − A. In the flame graph this is d3-flame-graph's
 * differential convention (`delta` > 0 is drawn red: more time in B; < 0 blue: less time in B).
 */
import type { FrameCategory } from '../frameCategory';
import { inclusiveTotals, preOrder } from '../treeTotals';

/** Which run a figure belongs to: A is the base, B the run compared with it. */
export type CompareSide = 'base' | 'other';

/**
 * How self times are compared. `ms`: as measured (right for the same workload run twice);
 * `share`: as percent of each profile's sampled time (right when the runs differ in length);
 * `request`: µs per request served in the measured window (both runs under load with the same
 * warm-up and window: a run that served more requests spent more time in total, not per request).
 */
export type CompareNormalization = 'ms' | 'share' | 'request';

/** The requests each run served in its measured window, when its self times compare per request. */
export interface CompareRequests {
  base: number;
  other: number;
}

/**
 * What one ms of each run's self time is in the unit: 1 (ms), 100 / its sampled time (share), or
 * 1,000 / its requests (µs per request). 0 where the unit cannot be had.
 */
export function normalizationScale(normalization: CompareNormalization, profileMs: { base: number; other: number }, requests: CompareRequests | null): { base: number; other: number } {
  const over = (n: number, d: number) => (d > 0 ? n / d : 0);
  if (normalization === 'share') return { base: over(100, profileMs.base), other: over(100, profileMs.other) };
  if (normalization === 'request') return { base: over(1000, requests?.base ?? 0), other: over(1000, requests?.other ?? 0) };
  return { base: 1, other: 1 };
}

/** Where a function started in A, when it starts elsewhere in B (a line was added or removed above it). */
export interface MovedFrom {
  /** 1-based. */
  line: number;
  column: number;
}

/**
 * One frame of the merged call tree, in the shape d3-flame-graph reads (`name`, `value`,
 * `children`, and `delta` for its differential colouring) with `selfValue(true)`. Frames are
 * matched by call path: at every level from the root, the same function (matched by name and
 * file, then nearest line: functionMatch.ts), so an edit that moves a function keeps its frames.
 */
export interface CompareNode {
  name: string;
  /** Self time of B in the model's normalisation unit (ms, or percent of B's profile): the frame's width. */
  value: number;
  /** B − A self time, same unit as `value`. */
  delta: number;
  /** Self time in A and in B, ms, whatever the normalisation (tooltips, re-normalising). */
  baseMs: number;
  otherMs: number;
  /** `both`, or only in A (`base`: gone in B), or only in B (`other`: new in B). */
  presence: 'both' | CompareSide;
  category: FrameCategory;
  /** Where the function is in B (in A when it is gone in B). */
  url: string;
  /** 1-based function start; 0 = no position. */
  line: number;
  column: number;
  /** A's start when the function is in both runs at different positions; null otherwise. */
  movedFrom: MovedFrom | null;
  children: CompareNode[];
}

/** A short description of one of the two runs, for the header. */
export interface CompareRunInfo {
  side: CompareSide;
  /** One line to tell the runs apart: "server.js 16 MB · 14:02". */
  label: string;
  /** The report's title for the run or file. */
  title: string;
  /** The run folder or file. */
  source: string;
  kind: 'run' | 'cpuprofile' | 'heapprofile' | 'pprof' | 'gc-trace' | 'v8-log';
  /** The run's program, or the file name. */
  program: string;
  /** The run's start (ISO); a file's modification time. Null when unknown. */
  startedAt: string | null;
  /** e.g. "v22.11.0"; null for a lone file. */
  nodeVersion: string | null;
  v8Version: string | null;
  /** "--max-semi-space-size=16 · --no-opt"; "semi-space: V8 default"; null for a lone file. */
  flags: string | null;
  /** What `--max-semi-space-size` asked for; null when left to V8 (or unknown). */
  semiSpaceRequestedMB: number | null;
  /** The semi-space the run really had; null when not measured. */
  semiSpaceMB: number | null;
  /** Wall time of the run (or of the profile), ms; null when unknown. */
  durationMs: number | null;
  /** The run's working folder: locations under it are shown relative to it. */
  cwd: string | null;
  /** The run's own warnings (truncated inputs, missing parts). */
  warnings: string[];
}

/** Which way is good for a figure. Fewer scavenges, shorter pauses, less RSS: `lower`. Throughput: `higher`. */
export type MetricDirection = 'lower' | 'higher' | 'neutral';

/** How a figure is shown: `share` values are 0–1 (their change is in percentage points). */
export type MetricUnit = 'count' | 'ms' | 'duration' | 'share' | 'MB' | 'per-s' | 'req/s' | 'bytes' | 'bytes/s';

/** The change judged by the figure's direction; `info` for figures that are settings, not outcomes. */
export type MetricVerdict = 'better' | 'worse' | 'same' | 'info' | 'n/a';

export interface MetricRow {
  key: string;
  label: string;
  /** `load`: per request, in the measured window of a run under load (CompareModel.load). */
  group: 'load' | 'run' | 'gc' | 'alloc' | 'cpu' | 'memory';
  unit: MetricUnit;
  direction: MetricDirection;
  base: number | null;
  other: number | null;
  /** B − A; null when either side is missing. */
  change: number | null;
  /** (B − A) / A × 100; null when A is 0 or either side is missing. */
  changePct: number | null;
  verdict: MetricVerdict;
  /** Text instead of a missing value ("V8 default"), per side. */
  baseText?: string;
  otherText?: string;
  /** Where the figure comes from or what it means, for a tooltip. */
  hint?: string;
  /**
   * Why a figure that could be judged is not (verdict `info`): a total of runs that did different
   * work ("total: see per request"). Shown where the verdict would be.
   */
  verdictNote?: string;
}

/** A function's self time in both runs (matched by name and file, then nearest line: functionMatch.ts). */
export interface FunctionChange {
  name: string;
  /** Where the function is in B (in A when it is gone in B). */
  url: string;
  line: number;
  column: number;
  /** A's start when it moved (in both runs at different positions); null otherwise. */
  movedFrom: MovedFrom | null;
  category: FrameCategory;
  baseSelfMs: number;
  otherSelfMs: number;
  /** Inclusive time; a recursive function is counted once per sample. */
  baseTotalMs: number;
  otherTotalMs: number;
  /** Self time as percent of each profile. */
  baseSelfPct: number;
  otherSelfPct: number;
  /** B − A in the list's normalisation (ms, or percentage points). */
  delta: number;
  /** (B − A) / A × 100 in the list's normalisation; null when A is 0 (new in B). */
  deltaPct: number | null;
  presence: 'both' | CompareSide;
}

export interface TopChanges {
  /** Biggest increases (more time in B) first. */
  increases: FunctionChange[];
  /** Biggest decreases (less time in B) first. */
  decreases: FunctionChange[];
}

/** A function found in both runs at a different start: the source changed between them. */
export interface MovedFunction {
  name: string;
  /** B's file. */
  url: string;
  /** A's start and B's start, 1-based. */
  from: MovedFrom;
  to: MovedFrom;
}

/**
 * Two runs under load compared per request. The load generator counts requests in the measured
 * window only, so every per-request figure uses that window's figures (summary.load): its GC
 * (`gcInWindow`) and its requests. Absent (null in the model) when neither run was under load.
 */
export interface LoadComparison {
  /** Which runs were driven with HTTP load and have the load's figures. */
  underLoad: { base: boolean; other: boolean };
  /** What the page says before the rows: what is compared and how far it can be trusted, or why nothing is. */
  notes: string[];
  /** req/s, latency, failed requests, GC and CPU per request side by side; empty unless both runs were under load. */
  rows: MetricRow[];
}

export interface CompareModel {
  /** "A: server.js 16 MB · 14:02 vs B: server.js 64 MB · 14:05". */
  title: string;
  base: CompareRunInfo;
  other: CompareRunInfo;
  /** The unit of `flame` values and deltas; the webview can switch. */
  normalization: CompareNormalization;
  /** Sampled time of each whole profile, ms (the share denominators); 0 without a profile. */
  profileMs: { base: number; other: number };
  /**
   * Requests in each run's measured window, when self times compare per request (`request`): both
   * runs under load with the same warm-up and window, and both with a CPU profile; null otherwise.
   * Absent in older models.
   */
  requests?: CompareRequests | null;
  /**
   * What one run a side can and cannot tell (no run-to-run noise estimate), said beside the
   * verdicts as the gate says it. Absent in older models.
   */
  noiseNote?: string;
  /** The profiled lengths differ by more than 20%: milliseconds alone may mislead. */
  lengthsDiffer: boolean;
  /** The merged call tree (root = "all"); null when either run has no CPU profile. */
  flame: CompareNode | null;
  /** Why `flame` is null. */
  flameMissing: string | null;
  /** Run, GC, CPU and memory figures side by side. */
  metrics: MetricRow[];
  /** Why there are no GC rows, when neither run traced GC. */
  gcMissing: string | null;
  /** Top functions by self-time change, in both normalisations (10 each way). */
  topChanges: Record<CompareNormalization, TopChanges>;
  /** Functions in both runs that start elsewhere in B (at most MAX_MOVED listed, `count` all of them). */
  moved: { count: number; functions: MovedFunction[] };
  /** Per-request figures of runs under load; null when neither run was under load. */
  load: LoadComparison | null;
  /** The functions whose allocation changed most; null when either run has no allocations (`allocMissing` says why). Absent in older models. */
  allocChanges?: AllocatorChanges | null;
  allocMissing?: string | null;
}

/** How each run's allocators compare: per request when both ran under load, else per second. */
export interface AllocatorChanges {
  unit: 'bytes/request' | 'bytes/s';
  /** Biggest change (either way) first, at most TOP_CHANGES. */
  functions: AllocatorChange[];
}

export interface AllocatorChange {
  name: string;
  /** Where the function is in B (in A when it is gone from B's allocators). */
  url: string;
  /** 1-based function start; 0 = none. */
  line: number;
  column: number;
  /** Its own bytes in the unit of AllocatorChanges; 0 when it is not among that run's allocators. */
  base: number;
  other: number;
  /** B − A. */
  change: number;
  presence: 'both' | CompareSide;
}

/** How many moved functions the model lists. */
export const MAX_MOVED = 100;

/** "moved from line 12 to 13", or "moved from 12:5 to 12:9" when only the column changed. */
export function describeMove(from: MovedFrom, to: MovedFrom): string {
  return from.line === to.line ? `moved from ${from.line}:${from.column} to ${to.line}:${to.column}` : `moved from line ${from.line} to ${to.line}`;
}

/** How many functions each top list holds. */
export const TOP_CHANGES = 10;

/**
 * A copy of the merged tree with `value` and `delta` in the given unit. `sizeBy` picks the run whose
 * self time is the frame width: B by default; A shows the frames that are gone in B (they have no
 * width in B). `delta` stays B − A either way. Iterative: real stacks are hundreds of frames deep.
 */
export function normalizeCompareTree(
  root: CompareNode,
  normalization: CompareNormalization,
  profileMs: { base: number; other: number },
  sizeBy: CompareSide = 'other',
  requests: CompareRequests | null = null,
): CompareNode {
  const { base: scaleBase, other: scaleOther } = normalizationScale(normalization, profileMs, requests);
  const copy = (n: CompareNode): CompareNode => {
    const base = n.baseMs * scaleBase;
    const other = n.otherMs * scaleOther;
    return { ...n, value: sizeBy === 'other' ? other : base, delta: other - base, children: [] };
  };
  const out = copy(root);
  const stack: [CompareNode, CompareNode][] = [[root, out]];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    for (const child of from.children) {
      const c = copy(child);
      to.children.push(c);
      stack.push([child, c]);
    }
  }
  return out;
}

/** Inclusive A and B time of every node (in the tree's unit, via `baseOf`/`otherOf`), parents before children in `order`. */
export function compareTotals(
  root: CompareNode,
  baseOf: (n: CompareNode) => number = (n) => n.baseMs,
  otherOf: (n: CompareNode) => number = (n) => n.otherMs,
): { order: CompareNode[]; base: Map<CompareNode, number>; other: Map<CompareNode, number> } {
  const order = preOrder(root);
  return { order, base: inclusiveTotals(order, baseOf), other: inclusiveTotals(order, otherOf) };
}
