import type { FlameNode } from './model/reportModel';

/**
 * Inclusive time of every node of a flame tree (its self time plus its descendants'), computed
 * iteratively because real stacks are hundreds of frames deep. `order` is parents before children.
 * Node-free: the host sorts the tree with it, the webview sizes and labels frames with it.
 */
export function flameTotals(root: FlameNode): { order: FlameNode[]; totals: Map<FlameNode, number> } {
  const order: FlameNode[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    order.push(node);
    for (const child of node.children) stack.push(child);
  }
  const totals = new Map<FlameNode, number>();
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i]!;
    let total = node.value;
    for (const child of node.children) total += totals.get(child)!;
    totals.set(node, total);
  }
  return { order, totals };
}
