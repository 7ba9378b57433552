/** One garbage collection, as printed by `--trace-gc` or `--trace-gc-nvp`. Times in ms, sizes in MiB. */
export interface GcEvent {
  pid: number;
  /** Isolate address as printed: "0x2ee1fc00" (Linux/macOS) or "000001BB84659390" (Windows). */
  isolate: string;
  /** ms since this isolate was initialised, printed at GC end (each worker has its own clock). */
  timeMs: number;
  /**
   * "Scavenge" | "Mark-Compact" | "Incremental Mark-Compact" (Node 26) | "Minor Mark-Sweep" |
   * "Minor Mark-Compact" | "Mark-sweep" (Node 18) | …: an open set, without the " (…)" qualifiers.
   * Ask `isYoungGenerationGc` / `isFullGc` which generation it collected.
   */
  type: string;
  /** " (interleaved)": a scavenge that ran during incremental marking (Node 22+). */
  interleaved: boolean;
  /** " (reduce)": a memory-reducing GC. */
  reduce: boolean;
  /**
   * Every parenthesised qualifier V8 printed after the type, as printed: "interleaved", "reduce",
   * "during sweeping" (Node 26), …; absent when there were none. Read-only (shared between events).
   */
  qualifiers?: readonly string[];
  heapBeforeMB: number;
  /** NaN when the source does not report it (NVP before Node 24). */
  committedBeforeMB: number;
  heapAfterMB: number;
  /** NaN when the source does not report it (NVP before Node 24). */
  committedAfterMB: number;
  /** `pooled: N MB` (Node 22+); null when not printed. */
  pooledMB: number | null;
  /** Main-thread pause: V8's first "X / Y ms" figure. */
  pauseMs: number;
  /** Time in embedder callbacks: the second figure. */
  externalMs: number;
  /** Mark-Compact only: work done before the pause, not included in `pauseMs`. */
  incrementalMarking: IncrementalMarking | null;
  /**
   * Mutator utilisation; null when not printed (NVP). It changes only at Mark-Compacts, so one
   * object is shared by consecutive events with the same values: treat events as read-only.
   */
  mu: { average: number; current: number } | null;
  /** "allocation failure", "task", … (open set); "" for NVP, which has none. */
  reason: string;
  /** Often "" (V8 prints a trailing "; " with nothing after it). */
  collectorReason: string;
  source: 'trace-gc' | 'nvp';
  /** Every name=value pair of an NVP line, numbers parsed, `%` stripped. */
  nvp?: Record<string, number | string>;
}

export interface IncrementalMarking {
  ms: number;
  /** Not reliable: Node 22 printed "0 steps" after 13.9 ms of marking. */
  steps: number;
  biggestStepMs: number;
  /** null when the line has no "walltime since start of marking" part. */
  wallMs: number | null;
}

export { isFullGc, isYoungGenerationGc } from '../../shared/gcKind';
