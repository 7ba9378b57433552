import type { FlameNode } from './model/reportModel';
import { inclusiveTotals, preOrder } from './treeTotals';

/**
 * Inclusive time of every node of a flame tree (its self time plus its descendants'), computed
 * iteratively because real stacks are hundreds of frames deep. `order` is parents before children.
 * Node-free: the host sorts the tree with it, the webview sizes and labels frames with it.
 */
export function flameTotals(root: FlameNode): { order: FlameNode[]; totals: Map<FlameNode, number> } {
  const order = preOrder(root);
  return { order, totals: inclusiveTotals(order, (node) => node.value) };
}
