import type { FrameCategory } from '../frameCategory';

/**
 * A CPU profile as the report page reads it: compact (a string table, one row per function and per
 * call-tree node) and in time order, so the page can draw a flame chart over time and narrow the
 * flame graph, the tables and the GC figures to a selected range without the host. Built by
 * core/report/timeProfile.ts; read by ../profile/*.
 */

export interface TimeProfile {
  /** Function names and urls, each once. */
  strings: string[];
  /** Per function (name + url + position): indices into `strings`, 1-based start (0: none). */
  fnName: number[];
  fnUrl: number[];
  fnLine: number[];
  fnColumn: number[];
  /** Index into TIME_PROFILE_CATEGORIES. */
  fnCategory: number[];
  /** Per call-tree node, parents before children (node 0 is the root): its function and parent (-1 for the root). */
  nodeFn: ArrayLike<number>;
  nodeParent: ArrayLike<number>;
  /**
   * The samples in time order, consecutive samples of the same node merged into one span: span i
   * runs on node `spanNode[i]` from Σ spanDeltaUs[0..i] µs after the first sample until the next
   * span starts (the last one until `durationUs`). Typed arrays as core builds them (a long
   * profile has millions of spans), packed for a page (PackedArrays): never JSON as they are.
   */
  spanNode: ArrayLike<number>;
  spanDeltaUs: ArrayLike<number>;
  /** From the first sample to the end of the last one, µs: Σ of all node self times. */
  durationUs: number;
  /**
   * Where the first sample falls on the clock of the GC events shown beside it (ms), so the two
   * share a time axis; null when they cannot be lined up (a profile without its run).
   */
  clockMs: number | null;
  /** How `clockMs` was found, for the page to say: "lined up on 83 GC pauses", or why it is null. */
  clockNote: string;
  /**
   * Each node's own time over the whole profile, µs: what its spans add up to (see
   * ../profile/profileIndex.ts, spanSelfUs). Sent with the packed profile, so the page draws the
   * flame graph before it has decoded the spans; absent otherwise.
   */
  nodeSelfUs?: ArrayLike<number>;
  /**
   * The flame graph as the page first draws it (the whole profile, nothing folded, frames under
   * DRAW_MIN_SHARE merged), as numbers (../profile/profileTrees.ts, drawnTreeCode). Made by the host
   * when it packs the profile, with the page's own code, so the first paint rebuilds a few thousand
   * frames instead of walking every node; absent otherwise.
   */
  drawnTree?: ArrayLike<number>;
  /**
   * The same for the very first paint, coarser (frames under FIRST_PAINT_SHARE merged: what can be
   * seen unzoomed and zoomed in a few times): a quarter of the frames of a real tsc profile. The
   * page swaps in `drawnTree` in the task after that paint. Absent in older reports.
   */
  firstTree?: ArrayLike<number>;
  /** In an exported report: the arrays above, packed (they are empty until unpacked). */
  packed?: PackedArrays;
}

/** Frame categories by index, as `fnCategory` stores them (the order of shared/frameCategory.ts plus 'process'; new ones at the end, so packed profiles keep their meaning). */
export const TIME_PROFILE_CATEGORIES: readonly FrameCategory[] = ['user', 'dependency', 'node', 'native', 'gc', 'idle', 'process', 'tool', 'waiting'];

/**
 * How a TimeProfile travels to the page (a webview message, an exported report): its number arrays
 * as runs of unsigned LEB128 varints (nodeParent + 1, so the root's −1 is 0), each array preceded
 * by its length, base64-encoded; the arrays themselves are then empty. In two parts: `data`, the
 * functions, the nodes, each node's self time and the first flame graph (PACKED_ARRAYS), all the
 * flame graph needs, a few hundred KB; and `spans` (PACKED_SPANS), the samples in time order, megabytes on a long profile,
 * which the page decodes after the flame graph is on screen. Not deflated: the spans, nearly all of
 * it, shrink by a fifth for 140 ms of deflate per 50 MB profile on the way out and an inflate on the
 * way in. core/report/packTimeProfile.ts writes it, ../profile/unpackTimeProfile.ts reads it back.
 */
export interface PackedArrays {
  encoding: 'leb128+base64';
  data: string;
  /** The spans; '' in an exported report, where they follow the page's script (see `spansIn`). */
  spans: string;
  /**
   * An exported report's spans are not in its model: they come after the page's script, in the
   * element with this id (base64 text), so the browser runs the script and paints the flame graph
   * before it has parsed them (megabytes); `count` is how many spans they hold.
   */
  spansIn?: { id: string; count: number };
}

export const PACKED_ARRAYS = ['fnName', 'fnUrl', 'fnLine', 'fnColumn', 'fnCategory', 'nodeFn', 'nodeParent', 'nodeSelfUs', 'drawnTree', 'firstTree'] as const;
export const PACKED_SPANS = ['spanNode', 'spanDeltaUs'] as const;
export type PackedArrayName = (typeof PACKED_ARRAYS)[number] | (typeof PACKED_SPANS)[number];
