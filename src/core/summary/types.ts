/**
 * The `summary.json` contract. Later parts of V8 Lens (the editor, the semi-space lab) and outside
 * checks read it: fields may be added, the documented ones are kept.
 *
 * Conventions everywhere in our output: lines and columns are 1-based (0 means "no source
 * position", as for native and VM frames such as `(garbage collector)`); times are milliseconds.
 */

export const SUMMARY_SCHEMA_VERSION = 1;

export interface Summary {
  schemaVersion: typeof SUMMARY_SCHEMA_VERSION;
  /** What was analysed: a run folder, or a single artifact given to `v8-lens report`. */
  source: SummarySource;
  cpu: CpuSummary | null;
  gc: GcSummary | null;
  /** Deopts grouped by function and innermost position, most frequent first. */
  deopts: DeoptSummaryEntry[];
  /** Why a part is missing or partial (truncated input, a flag that was off, …); one line each. */
  warnings: string[];
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
