/**
 * The `summary.json` contract. Later parts of V8 Lens (the editor, the semi-space lab) and outside
 * checks read it: fields may be added, the documented ones are kept.
 *
 * Conventions everywhere in our output: lines and columns are 1-based (0 means "no source
 * position", as for native and VM frames such as `(garbage collector)`); times are milliseconds.
 */

import type { LoadFigures } from '../sweep/sweepTypes';

export const SUMMARY_SCHEMA_VERSION = 1;

export interface Summary {
  schemaVersion: typeof SUMMARY_SCHEMA_VERSION;
  /** What was analysed: a run folder, or a single artifact given to `v8-lens report`. */
  source: SummarySource;
  cpu: CpuSummary | null;
  gc: GcSummary | null;
  /** Deopts grouped by function and innermost position, most frequent first. */
  deopts: DeoptSummaryEntry[];
  /**
   * Per function that deopted (its own optimized code, or its code inlined into another function),
   * for a CodeLens above it. Most deopts first. Absent from summaries written before it existed and
   * from failed analyses: read as [] (see `withSummaryDefaults`).
   */
  deoptFunctions: DeoptFunctionSummary[];
  /**
   * Functions V8 optimized (Maglev/TurboFan) that never deopted, neither their own code nor where
   * they were inlined: disjoint from `deoptFunctions`. Most optimizations first, at most
   * `MAX_OPTIMIZED_FUNCTIONS` (a warning says when more were cut). Absent in older summaries: read as [].
   */
  optimizedFunctions: OptimizedFunctionSummary[];
  /**
   * Whether `deopts` is the whole story. 'collected': every process's deopts were read (an empty list
   * means none happened); 'partial': some were read, some are unknown (a warning says which);
   * 'not-collected': nobody looked (an npm-script launch, an attached process, a preset without
   * deopts, a lost trace), so an empty list means "unknown", never "0 deopts". Absent in summaries
   * written before it existed: `withSummaryDefaults` fills it in.
   */
  deoptCoverage: DeoptCoverage;
  /** The load V8 Lens drove the target with ("profile under load"), and the GC of its window; absent otherwise. */
  load?: LoadSummary | null;
  /** Why a part is missing or partial (truncated input, a flag that was off, …); one line each. */
  warnings: string[];
}

export type DeoptCoverage = 'collected' | 'partial' | 'not-collected';

// --------------------------------------------------------------------------------------------- Load

export interface LoadSummary {
  url: string;
  connections: number;
  /** Fixed overall req/s, or null for a closed loop (as fast as the target answers). */
  rate: number | null;
  warmupSeconds: number;
  durationSeconds: number;
  /** What the load generator measured in its window; null when no load ran (`error` says why). */
  figures: LoadFigures | null;
  /** Errors + timeouts + non-2xx answers: requests the target lost. */
  failedRequests: number;
  error: string | null;
  /** GC inside the measured window (by the arrival of the trace lines). */
  gcInWindow: { events: number; scavenges: number; markCompacts: number; pauseMs: number; wallShare: number } | null;
}

export interface SummarySource {
  kind: 'run' | 'cpuprofile' | 'gc-trace' | 'v8-log';
  path: string;
}

// ---------------------------------------------------------------------------------------------- CPU

export interface CpuSummary {
  /** File name of the profile the figures come from (the main thread's when there are several). */
  profile: string;
  /** Wall time the profile covers. */
  durationMs: number;
  sampleCount: number;
  /** Median time between samples: the effective sampling interval. */
  sampleIntervalMs: number;
  /** Per function (name + url + line + column), sorted by `selfMs` descending. */
  functions: CpuFunctionSummary[];
  /** Per source line, from `positionTicks`, sorted by `selfMs` descending. */
  lines: CpuLineSummary[];
  /** Time in V8's pseudo-frames: `(garbage collector)`, `(idle)`, `(program)`. */
  pseudo: { gcMs: number; idleMs: number; programMs: number };
  /** Every profile found in the run (worker threads write their own). */
  profiles: CpuProfileFile[];
}

export interface CpuFunctionSummary {
  name: string;
  url: string;
  line: number;
  column: number;
  selfMs: number;
  /** Inclusive time; a recursive function is counted once per sample. */
  totalMs: number;
}

export interface CpuLineSummary {
  url: string;
  line: number;
  selfMs: number;
}

export interface CpuProfileFile {
  file: string;
  pid: number | null;
  threadId: number | null;
  durationMs: number;
  sampleCount: number;
}

// ----------------------------------------------------------------------------------------------- GC

export interface GcTypeStats {
  count: number;
  totalMs: number;
  meanMs: number;
  p95Ms: number;
  maxMs: number;
}

export interface GcSummary {
  /** Keyed by the type as V8 prints it: "Scavenge", "Mark-Compact", "Minor Mark-Sweep", … */
  byType: Record<string, GcTypeStats>;
  /** Sum of main-thread pauses (V8's first "X / Y ms" figure) of every event. */
  totalPauseMs: number;
  /** Incremental-marking work done before Mark-Compact pauses ("+ A ms in N steps"), not in totalPauseMs. */
  incrementalMarkingMs: number;
  /** totalPauseMs / wall time of the traced isolate, 0–1. */
  wallShare: number;
  /** Wall time the share is computed over. */
  wallMs: number;
  /** The semi-space the run really had (largest new space seen / 2), in MB; null when not measured. */
  semiSpaceMB: number | null;
  /** What `--max-semi-space-size` asked for; null when left to V8's default. */
  semiSpaceRequestedMB: number | null;
  eventCount: number;
  /** GC events per reason ("allocation failure", "task", …). */
  byReason: Record<string, number>;
  /** Lines that looked like GC trace lines but could not be parsed (kept, never thrown on). */
  unparsedLines: number;
  /** Which isolate the figures are for, and the others seen (worker threads, child processes). */
  isolate: GcIsolateSummary | null;
  otherIsolates: GcIsolateSummary[];
}

export interface GcIsolateSummary {
  pid: number;
  isolate: string;
  eventCount: number;
  totalPauseMs: number;
}

// ------------------------------------------------------------------------------------------- Deopts

export interface SourcePosition {
  url: string;
  line: number;
  column: number;
}

export interface DeoptSummaryEntry extends SourcePosition {
  /** The function the innermost position belongs to (the one that bailed out). */
  function: string;
  /**
   * Where that function starts (for a CodeLens above it); null when unknown: a code trace (runs with
   * a CPU profile) names functions, and one the profile never sampled has no known position. Absent
   * in older summaries: read as null.
   */
  functionStart: SourcePosition | null;
  /** The optimized function whose code was thrown away (differs from `function` when inlined). */
  optimizedFunction: string;
  /** V8's deoptimize kind: "deopt-eager", "dependency-change", "deopt-lazy", … (an open set). */
  kind: string;
  /** V8's reason text, verbatim: "not a Smi", "wrong map", … */
  reason: string;
  count: number;
  /** Call sites the position was inlined at, innermost first. */
  inlinedAt: SourcePosition[];
  /**
   * Time of the first and last occurrence, ms since the isolate's log started; null when the source
   * has no times (deopts read from the code trace, which is what runs with a CPU profile give).
   */
  firstMs: number | null;
  lastMs: number | null;
  /** Optimization tier of the code that deopted ("TurboFan", "Maglev", …), when known. */
  tier: string | null;
}

/** How often one kind + reason occurred. */
export interface DeoptReasonCount {
  kind: string;
  reason: string;
  count: number;
}

/**
 * One function that deopted. `url`/`line`/`column` are where the function starts (as in
 * `DeoptSummaryEntry.functionStart`), line 0 when unknown (a code trace naming a function the CPU
 * profile never sampled).
 */
export interface DeoptFunctionSummary extends SourcePosition {
  /** As V8 names it; `(anonymous)` for top-level code and anonymous functions. */
  function: string;
  /**
   * Tiers it reached, lowest first: "Ignition", "Sparkplug", "Maglev", "TurboFan". From a code trace
   * (runs with a CPU profile) only the optimizing tiers are known.
   */
  tiers: string[];
  /** How often its own optimized code was thrown away. */
  deoptCount: number;
  /** Deopts at positions inside it while it was inlined into another function (see `deopts`). */
  inlinedDeoptCount: number;
  /** Its own deopts by kind and reason, most frequent first (inlined ones are in `deopts`). */
  reasons: DeoptReasonCount[];
  /**
   * Whether V8 optimized it again after its last own deopt: false means it stayed deoptimized. Null
   * when its own code never deopted, or when the run recorded no optimizations (code traces taken
   * without `--trace-opt`). Code traces have no times: their order stands in for time.
   */
  reoptimized: boolean | null;
  /** Optimizations after its first own deopt: a number that keeps growing is a deopt loop. */
  reoptimizations: number;
}

/** A function V8 optimized that never deopted. `url`/`line`/`column` are where it starts. */
export interface OptimizedFunctionSummary extends SourcePosition {
  /** As V8 names it; `(anonymous)` for top-level code and anonymous functions. */
  function: string;
  /** The optimizing tiers its code was made in, lowest first: "Maglev", "TurboFan". */
  tiers: string[];
  /** How many times optimized code was made for it (on-stack replacement included). */
  optimizations: number;
}

/** A summary with nothing in it yet: no CPU, no GC, deopts not collected. `parts` fills in what is known. */
export function emptySummary(source: SummarySource, parts: Partial<Summary> = {}): Summary {
  return {
    schemaVersion: SUMMARY_SCHEMA_VERSION,
    source,
    cpu: null,
    gc: null,
    deopts: [],
    deoptFunctions: [],
    optimizedFunctions: [],
    deoptCoverage: 'not-collected',
    warnings: [],
    ...parts,
  };
}

/** `optimizedFunctions` keeps this many (the most optimized). */
export const MAX_OPTIMIZED_FUNCTIONS = 2000;

/**
 * A summary read back from disk, with the fields older versions did not write filled in (missing
 * lists become [], a missing `functionStart` null). Modifies and returns `summary`.
 */
export function withSummaryDefaults(summary: Summary): Summary & Required<Pick<Summary, 'deoptFunctions' | 'optimizedFunctions'>> {
  summary.deopts ??= [];
  for (const d of summary.deopts) d.functionStart ??= null;
  summary.deoptFunctions ??= [];
  summary.optimizedFunctions ??= [];
  summary.warnings ??= [];
  // Older summaries: deopts found means they were read; none found cannot be told from "not looked".
  summary.deoptCoverage ??= summary.deopts.length > 0 ? 'collected' : 'not-collected';
  return summary as Summary & Required<Pick<Summary, 'deoptFunctions' | 'optimizedFunctions'>>;
}
