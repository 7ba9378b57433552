/**
 * The flame graph's tree for drawing: under each frame, the children too narrow to be drawn even
 * zoomed in many times (less than `minShare` of the whole) are merged into one frame, "(12 smaller
 * frames)", with their time. d3-flame-graph lays out and keeps every node it is given; a profile of
 * 50,000 nodes draws a few thousand, and the rest only cost time. Their time stays in the totals;
 * the bottom-up, callers & callees views and a selected range show them in full.
 */
import { flameTotals } from '../flameTotals';
import type { FlameNode } from '../model/reportModel';

/**
 * A fifth of a pixel of a 1,000-pixel graph: such a frame reaches d3's 5-pixel minimum only zoomed in
 * more than 25×. A real `tsc` profile (70,000 nodes) keeps a few thousand.
 */
export const DRAW_MIN_SHARE = 1 / 5_000;

/**
 * The first paint's tree (TimeProfile.firstTree): a five-hundredth, 2.6 pixels of a 1,280-pixel
 * graph, drawn (5 pixels) from 2× zoom: an eighth of the frames of a real tsc profile's whole tree,
 * two fifths of the 47 MB generated one's. The whole DRAW_MIN_SHARE tree replaces it with the spans
 * (a task later in a webview; in an exported report once the browser has parsed them).
 */
export const FIRST_PAINT_SHARE = 1 / 500;

/** With `totalsOut`: the pruned tree's inclusive totals (the same as the kept nodes' were). */
export function pruneForDrawing(root: FlameNode, minShare = DRAW_MIN_SHARE, totalsOut?: Map<FlameNode, number>): { root: FlameNode; merged: number } {
  const { totals } = flameTotals(root);
  const min = (totals.get(root) ?? 0) * minShare;
  let merged = 0;
  const copy = (node: FlameNode): FlameNode => {
    const made = { ...node, children: [] };
    totalsOut?.set(made, totals.get(node) ?? node.value);
    return made;
  };
  const out = copy(root);
  const stack: [FlameNode, FlameNode][] = [[root, out]];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    let small = 0;
    let smallTime = 0;
    for (const child of from.children) {
      const t = totals.get(child) ?? 0;
      if (t < min) {
        small++;
        smallTime += t;
        continue;
      }
      const c = copy(child);
      to.children.push(c);
      stack.push([child, c]);
    }
    if (small > 0) {
      merged += small;
      const mergedNode: FlameNode = { name: `(${small} smaller frame${small === 1 ? '' : 's'})`, value: smallTime, children: [], category: from.category, url: '', line: 0, column: 0 };
      to.children.push(mergedNode);
      totalsOut?.set(mergedNode, smallTime);
    }
  }
  return { root: out, merged };
}
