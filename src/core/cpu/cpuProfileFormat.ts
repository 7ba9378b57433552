/**
 * The `.cpuprofile` as V8 writes it (raw, loosely typed: it comes from disk) and the normalised form
 * the rest of V8 Lens works on. Parsing lives in `parseCpuProfile.ts` and is imported from there:
 * this file re-exports nothing, so the readers can import its types without a cycle.
 *
 * Raw positions: `callFrame.lineNumber`/`columnNumber` are 0-based (-1 = none, for VM frames), while
 * `positionTicks[].line` is already 1-based. The normalised form is 1-based everywhere (0 = none).
 */

// ---------------------------------------------------------------------------------------------- raw

/** CDP `Profiler.Profile` (Node's `--cpu-prof`, js-debug, Chrome DevTools). */
export interface RawCpuProfile {
  nodes: RawCpuProfileNode[];
  /** µs on a monotonic clock. */
  startTime: number;
  endTime: number;
  /** Node id per sample. */
  samples: number[];
  /** µs between samples; `timeDeltas[0]` is from `startTime` to the first sample. May be negative. */
  timeDeltas: number[];
}

export interface RawCpuProfileNode {
  /** Unique, but neither dense nor sorted. */
  id: number;
  callFrame: RawCallFrame;
  /** Disagrees with `samples`; never used for time. */
  hitCount?: number;
  children?: number[];
  /** Chrome trace `ProfileChunk` nodes link upwards instead of (or as well as) downwards. */
  parent?: number;
  positionTicks?: RawPositionTick[];
}

export interface RawCallFrame {
  functionName: string;
  scriptId: string | number;
  url: string;
  lineNumber: number;
  columnNumber?: number;
}

export interface RawPositionTick {
  /** 1-based. */
  line: number;
  ticks: number;
}

/**
 * The legacy format (V8 ≤ ~6, the `v8-profiler` add-on, old DevTools exports): a nested `head` tree,
 * absolute `timestamps` (µs) instead of deltas, and `startTime`/`endTime` often in *seconds*.
 */
export interface RawLegacyCpuProfile {
  head: RawLegacyNode;
  startTime: number;
  endTime: number;
  samples: number[];
  /** Absolute µs per sample; may carry one extra trailing entry: the end of the last sample. */
  timestamps: number[];
}

export interface RawLegacyNode {
  id: number;
  functionName?: string;
  url?: string;
  lineNumber?: number;
  columnNumber?: number;
  scriptId?: string | number;
  /** Some exporters nest a CDP-style call frame instead of flat fields. */
  callFrame?: RawCallFrame;
  children?: RawLegacyNode[];
  positionTicks?: RawPositionTick[];
}

// ----------------------------------------------------------------------------------------- normalised

export interface CpuCallFrame {
  /** As in the file: '' for anonymous functions and the CommonJS module wrapper. */
  functionName: string;
  url: string;
  scriptId: string;
  /** 1-based; 0 = no source position (VM frames such as `(garbage collector)`). */
  line: number;
  /** 1-based; 0 = no source position. */
  column: number;
}

export interface CpuPositionTick {
  /** 1-based source line within the node's script. */
  line: number;
  ticks: number;
}

export interface CpuProfileNode {
  /** The id in the file (samples refer to it). */
  id: number;
  callFrame: CpuCallFrame;
  /** Empty when the file has none. */
  positionTicks: readonly CpuPositionTick[];
}

/**
 * Indexable and iterable numbers: a plain array (what `JSON.parse` gave, rewritten in place) or a
 * typed array (what the fast path for big files scanned). Either way, never copied.
 */
export type NumberList = ArrayLike<number> & Iterable<number>;

export interface CpuProfile {
  /** The name used in messages (usually the file name). */
  sourceName: string;
  format: 'modern' | 'legacy';
  /**
   * Depth-first pre-order: every parent comes before its children and a subtree is contiguous.
   * `nodes[0]` is the root (`(root)` in V8 output).
   */
  nodes: CpuProfileNode[];
  /** Index of each node's parent in `nodes`; -1 for a root. */
  parents: Int32Array;
  /**
   * The distinct call frames (nodes share these objects: `nodes[i].callFrame === frames[nodeFrames[i]]`),
   * for grouping by index instead of by string.
   */
  frames: CpuCallFrame[];
  nodeFrames: Int32Array;
  /** Index in `nodes` of each sample's leaf node. */
  samples: NumberList;
  /**
   * µs from the previous sample (for `[0]`: from `startTimeUs`), as in the file, so possibly negative.
   * Same length as `samples`. Legacy absolute timestamps are converted to this form.
   */
  timeDeltasUs: NumberList;
  startTimeUs: number;
  /** End of profiling; the last sample lasts until here when it is later than that sample. */
  endTimeUs: number;
  /** Things tolerated while reading (length mismatches, odd links); one line each, for the user. */
  warnings: string[];
}
