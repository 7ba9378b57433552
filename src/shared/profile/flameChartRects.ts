/**
 * The time-ordered flame chart's boxes: for each depth, the stretches of time one frame stayed on
 * the stack (consecutive samples on the same call path merged), as DevTools' Performance panel and
 * speedscope's time-order view draw them. V8's idle and program pseudo-frames are left out: an
 * empty column is the event loop waiting.
 *
 * Built per depth, in time order, so a draw finds what is in view by binary search and a hit test
 * looks at one row. Each span walks up from its leaf only until it meets the stack already open:
 * the cost is the frames that changed, not the stack's depth.
 */
import type { CollapseOptions, DisplayMap } from './collapse';
import { displayMap } from './collapse';
import type { ProfileIndex, ProfileRange } from './profileIndex';
import { TIME_PROFILE_CATEGORIES } from '../model/timeProfile';

/** One row of boxes, in time order: start and end µs after the first sample, and the shown node. */
export interface ChartLevel {
  startUs: Float64Array;
  endUs: Float64Array;
  node: Int32Array;
}

export interface ChartRects {
  levels: ChartLevel[];
  count: number;
  maxDepth: number;
  map: DisplayMap;
  /** The time the boxes cover, µs after the first sample. */
  fromUs: number;
  toUs: number;
  /**
   * 0 when every span is drawn; else the width of the time slices each shown by its longest span
   * (more spans than columns: the boxes are then a picture of the profile, not its exact account).
   */
  sliceUs: number;
}

/** Spans beyond this many in the range are sampled into as many slices: no screen has more columns. */
export const MAX_CHART_SPANS = 4096;

/**
 * The boxes for `range` (the whole profile when null). With more spans there than `maxSpans`, the
 * range is cut into `maxSpans` slices, each shown by the span that covers most of it: a long run of
 * deep, fast-changing stacks would otherwise make tens of millions of sub-pixel boxes.
 */
export function flameChartRects(index: ProfileIndex, collapse: CollapseOptions, range: ProfileRange | null = null, maxSpans = MAX_CHART_SPANS): ChartRects {
  const map = displayMap(index, collapse);
  const { nodeParent, fnCategory, nodeFn } = index.profile;
  const fromUs = Math.max(0, range?.fromUs ?? 0);
  const toUs = Math.min(index.profile.durationUs, range?.toUs ?? index.profile.durationUs);
  const { spanNode, spanStartUs, sliceUs } = spansIn(index, fromUs, toUs, maxSpans);
  const idle = TIME_PROFILE_CATEGORIES.indexOf('idle');
  const { shownAs } = map;
  // Depth among shown nodes: a folded run of frames is one row.
  const depth = new Int32Array(index.nodeCount).fill(-1);
  for (let i = 1; i < index.nodeCount; i++) {
    if (shownAs[i] !== i) continue;
    const up = shownAs[nodeParent[i]!]!;
    depth[i] = up > 0 ? depth[up]! + 1 : 0;
  }
  const rows: { start: number[]; end: number[]; node: number[] }[] = [];
  const open: number[] = [];
  const openAt: number[] = [];
  const fresh: number[] = [];
  const close = (from: number, t: number) => {
    for (let d = open.length - 1; d >= from; d--) rows[d]!.end[openAt[d]!] = t;
    open.length = from;
    openAt.length = from;
  };
  let count = 0;
  for (let s = 0; s < spanNode.length; s++) {
    const t = spanStartUs[s]!;
    let leaf = shownAs[spanNode[s]!]!;
    // The event loop waiting (or V8's own bookkeeping) under the root: nothing on the stack.
    if (leaf > 0 && depth[leaf] === 0 && fnCategory[nodeFn[leaf]!] === idle) leaf = 0;
    fresh.length = 0;
    let a = leaf;
    while (a > 0 && open[depth[a]!] !== a) {
      fresh.push(a);
      a = shownAs[nodeParent[a]!]!;
    }
    close(a > 0 ? depth[a]! + 1 : 0, t);
    for (let k = fresh.length - 1; k >= 0; k--) {
      const n = fresh[k]!;
      const d = depth[n]!;
      const row = (rows[d] ??= { start: [], end: [], node: [] });
      open.push(n);
      openAt.push(row.start.length);
      row.start.push(t);
      row.end.push(t);
      row.node.push(n);
      count++;
    }
  }
  close(0, toUs);
  const levels = rows.map((r) => ({ startUs: Float64Array.from(r.start), endUs: Float64Array.from(r.end), node: Int32Array.from(r.node) }));
  return { levels, count, maxDepth: Math.max(0, levels.length - 1), map, fromUs, toUs, sliceUs };
}

/** The spans that start in [fromUs, toUs) (the one running at `fromUs` starting there), or `maxSpans` slices of them. */
function spansIn(index: ProfileIndex, fromUs: number, toUs: number, maxSpans: number): { spanNode: ArrayLike<number>; spanStartUs: ArrayLike<number>; sliceUs: number } {
  const starts = index.spanStartUs;
  const nodes = index.profile.spanNode;
  let first = 0;
  let hi = starts.length;
  while (first < hi) {
    const mid = (first + hi) >> 1;
    if (index.spanEndUs(mid) > fromUs) hi = mid;
    else first = mid + 1;
  }
  let last = first;
  while (last < starts.length && starts[last]! < toUs) last++;
  const count = last - first;
  if (count <= maxSpans) {
    const spanStartUs = Array.from(starts.subarray(first, last), (t) => Math.max(t, fromUs));
    const spanNode = new Array<number>(count);
    for (let i = 0; i < count; i++) spanNode[i] = nodes[first + i]!;
    return { spanNode, spanStartUs, sliceUs: 0 };
  }
  const sliceUs = (toUs - fromUs) / maxSpans;
  const spanNode: number[] = [];
  const spanStartUs: number[] = [];
  let s = first;
  for (let k = 0; k < maxSpans; k++) {
    const a = fromUs + k * sliceUs;
    const b = a + sliceUs;
    let best = -1;
    let bestUs = -1;
    while (s < last) {
      const covered = Math.min(b, index.spanEndUs(s)) - Math.max(a, starts[s]!);
      if (covered > bestUs) {
        bestUs = covered;
        best = nodes[s]!;
      }
      if (index.spanEndUs(s) > b) break; // it runs on into the next slice
      s++;
    }
    if (best < 0) continue;
    if (spanNode.length > 0 && spanNode[spanNode.length - 1] === best) continue;
    spanNode.push(best);
    spanStartUs.push(a);
  }
  return { spanNode, spanStartUs, sliceUs };
}

/** The first box of a row that ends after `us` (the row's length when none). */
export function firstEndingAfter(level: ChartLevel, us: number): number {
  let lo = 0;
  let hi = level.endUs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (level.endUs[mid]! > us) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
