/**
 * The sampling heap profile (`.heapprofile`), as V8's HeapProfiler.stopSampling hands it over and
 * Chrome DevTools and speedscope open it, and the normalised form V8 Lens works on.
 *
 * Raw: a call tree whose nodes carry `selfSize`, the bytes V8 estimates were allocated there while
 * sampling (each sampled allocation scaled by the sampling interval), and `samples` (one per sampled
 * allocation). Positions are 0-based (-1 = none) and name the function's start: a heap profile has
 * no lines inside a function. The normalised form is 1-based (0 = none), like everything V8 Lens outputs.
 */

export interface RawHeapProfile {
  head: RawHeapNode;
  samples?: { size: number; nodeId: number; ordinal: number }[];
}

export interface RawHeapNode {
  callFrame: { functionName: string; scriptId: string | number; url: string; lineNumber: number; columnNumber: number };
  selfSize: number;
  id: number;
  children: RawHeapNode[];
}

export interface HeapNode {
  name: string;
  /** '' where V8 did not name the script (Node 20 leaves the main script's functions without url and position). */
  url: string;
  /** V8's script id in this isolate: ties a frame to the same isolate's CPU profile. */
  scriptId: string;
  /** 1-based start of the function; 0 = none (V8's own frames). */
  line: number;
  column: number;
  /** Bytes allocated in this function itself at this place of the call tree (V8's estimate). */
  selfBytes: number;
  /** Index of the parent in `nodes`; -1 for the root. */
  parent: number;
  children: number[];
}

export interface HeapProfile {
  /** Pre-order: a parent before its children; nodes[0] is the root. */
  nodes: HeapNode[];
  totalBytes: number;
  sampleCount: number;
  /** What is odd but tolerated, one line each. */
  warnings: string[];
}
