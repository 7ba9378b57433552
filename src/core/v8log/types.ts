/**
 * What the V8 log reader extracts from `--log-deopt --log-code` logs. Positions are 1-based (0 = none),
 * times are ms since the isolate's log started.
 */
import type { SourcePosition } from '../../shared/model/summary';

/** A position from the log. `url` is a file path when V8 wrote a `file://` URL; `sourceUrl` is V8's text. */
export interface LogPosition extends SourcePosition {
  sourceUrl: string;
}

/**
 * Execution tier of a code object, from the `code-creation` state marker (never from the numeric
 * CodeKind, which changes between V8 versions).
 */
export type Tier = 'interpreted' | 'sparkplug' | 'maglev' | 'turbofan' | 'unknown';

/** Shared between code objects: never modify one. */
export interface CodeState {
  /** The marker as V8 wrote it: `~`, `^`, `+`, `*`, `''` (empty), Node 24's `+'`/`*'`, or anything new. */
  readonly marker: string;
  readonly tier: Tier;
  /** The empty marker: interpreted code of a function V8 will no longer optimize. */
  readonly optimizationDisabled: boolean;
  /** Node 24's `'` suffix: code specialized to one function context (V8's `context_specialized`). */
  readonly contextSpecialized: boolean;
}

/** Identifies a JS function by what `code-creation` says about it: name and start position. */
export interface FunctionRef extends LogPosition {
  /** As V8 names it; empty for top-level code and anonymous functions. */
  name: string;
}

export interface V8Function extends FunctionRef {
  /** Tiers reached, lowest first. */
  tiers: Tier[];
  /**
   * Every Maglev/TurboFan `code-creation` of the function (re-optimizations included), or every
   * completed optimization in a code trace (`--trace-opt`), which has no times: `timeMs` is NaN there
   * and `seq` orders it among the trace's deopts instead.
   */
  optimizations: Array<{ isolate: string; timeMs: number; tier: Tier; seq?: number; timeErrorMs?: number }>;
  /** Seen with the empty marker: V8 gave up optimizing it. */
  optimizationDisabled: boolean;
  /** Its source range as UTF-16 offsets in the script (from `code-source-info`), when logged. */
  sourceRange: { start: number; end: number } | null;
}

export interface V8Deopt {
  /** The log file (or label) of the isolate it happened in. */
  isolate: string;
  timeMs: number;
  /** How far off `timeMs` can be (a code trace dated by the agent's readings, see run/traceClock.ts); absent when exact or unknown. */
  timeErrorMs?: number;
  /** V8's deoptimize kind, verbatim: "deopt-eager", "dependency-change", … */
  kind: string;
  /** V8's reason, verbatim. */
  reason: string;
  /** Innermost position; null when V8 wrote `<unknown>`. */
  position: LogPosition | null;
  /** Call sites the position was inlined at, innermost first. */
  inlinedAt: LogPosition[];
  /** The position text as V8 wrote it (unescaped), for positions we could not read. */
  rawPosition: string;
  /** V8's inlining id: -1 when the deopt point is not in inlined code. */
  inliningId: number;
  /** 0-based UTF-16 offset of the innermost position in its script. */
  scriptOffset: number;
  /** Start address of the optimized code that was thrown away, as V8 wrote it. */
  codeStart: string;
  /** The outermost optimized function, found through the code map; null when its code was not logged. */
  optimizedFunction: FunctionRef | null;
  /** Tier of the code that deopted; null when its code was not logged. */
  tier: Tier | null;
  /** Its `code-creation` state marker as V8 wrote it (`*`, `+'`, …); null when its code was not logged. */
  marker: string | null;
  /** The function the innermost position belongs to (see functionIndex.ts); null when unknown. */
  function: FunctionRef | null;
  /**
   * For deopts read from a code trace (no times, `timeMs` NaN): the place among the trace's deopts and
   * optimizations, compared with the `seq` of `V8Function.optimizations` of the same isolate.
   */
  seq?: number;
  /** The process/thread it happened in (`ProcessSummary.id`), when the run had several. */
  process?: string;
  /** Which of V8's reports had it; one event seen in both the log and the code trace counts once. */
  sources?: Array<'v8-log' | 'code-trace'>;
  /** Under load: before (warm-up), inside or after the measured window; absent when not known. */
  phase?: 'before' | 'window' | 'after';
}

export interface V8LogCounters {
  lines: number;
  /** A last line without its newline (the file was cut while V8 wrote it): ignored. */
  truncatedLines: number;
  /** Lines of the events we read whose fields did not parse, and lines that are not events at all. */
  malformedLines: number;
  /** Events we do not read, by name (`tick`, `script-source`, IC events, …). */
  ignoredEvents: Record<string, number>;
  /** `code-deopt` events whose code address matched no logged code object. */
  unresolvedDeopts: number;
  /** `code-deopt` lines, read or not: what the run's self-check holds the deopts read against. */
  deoptEvents: number;
}

export interface IsolateLog {
  /** The file name (or the label given to the reader). */
  name: string;
  v8Version: string | null;
  deoptCount: number;
  counters: V8LogCounters;
}

export interface V8LogAnalysis {
  /** From the `v8-version` line, e.g. "11.3.244.8-node.38"; the first isolate's when merged. */
  v8Version: string | null;
  isolates: IsolateLog[];
  functions: V8Function[];
  /** In log order within each isolate. */
  deopts: V8Deopt[];
  /** Sums over all isolates. */
  counters: V8LogCounters;
}
