/**
 * The time-ordered flame chart's boxes: for each depth, the stretches of time one frame stayed on
 * the stack (consecutive samples on the same call path merged), as DevTools' Performance panel and
 * speedscope's time-order view draw them. V8's idle and program pseudo-frames are left out: an
 * empty column is the event loop waiting.
 */
import type { CollapseOptions, DisplayMap } from './collapse';
import { displayMap } from './collapse';
import type { ProfileIndex } from './profileIndex';
import { TIME_PROFILE_CATEGORIES } from '../model/timeProfile';

export interface ChartRects {
  count: number;
  depth: Int32Array;
  startUs: Float64Array;
  endUs: Float64Array;
  /** The shown node (see collapse.ts) each box is: its key names the function or fold. */
  node: Int32Array;
  maxDepth: number;
  map: DisplayMap;
}

export function flameChartRects(index: ProfileIndex, collapse: CollapseOptions): ChartRects {
  const map = displayMap(index, collapse);
  const { spanNode, nodeParent, fnCategory, nodeFn } = index.profile;
  const idleCategory = TIME_PROFILE_CATEGORIES.indexOf('idle');
  const depth: number[] = [];
  const start: number[] = [];
  const end: number[] = [];
  const node: number[] = [];
  // The open box at each depth: its node and where its start was pushed.
  const open: number[] = [];
  const openAt: number[] = [];
  const path: number[] = [];
  let maxDepth = 0;
  const close = (from: number, t: number) => {
    for (let d = open.length - 1; d >= from; d--) end[openAt[d]!] = t;
    open.length = from;
    openAt.length = from;
  };
  for (let s = 0; s < spanNode.length; s++) {
    const t = index.spanStartUs[s]!;
    path.length = 0;
    for (let n = map.shownAs[spanNode[s]!]!; n > 0; n = map.shownAs[nodeParent[n]!]!) path.push(n);
    path.reverse();
    if (path.length === 1 && fnCategory[nodeFn[path[0]!]!] === idleCategory) path.length = 0;
    let same = 0;
    while (same < open.length && same < path.length && open[same] === path[same]) same++;
    close(same, t);
    for (let d = same; d < path.length; d++) {
      open.push(path[d]!);
      openAt.push(start.length);
      depth.push(d);
      start.push(t);
      end.push(t);
      node.push(path[d]!);
      if (d > maxDepth) maxDepth = d;
    }
  }
  close(0, index.profile.durationUs);
  return {
    count: start.length,
    depth: Int32Array.from(depth),
    startUs: Float64Array.from(start),
    endUs: Float64Array.from(end),
    node: Int32Array.from(node),
    maxDepth,
    map,
  };
}
