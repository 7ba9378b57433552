/**
 * Walks over call trees without recursion (real stacks are hundreds of frames deep, and deeper in
 * crafted files): the pre-order of a tree, and every node's inclusive weight.
 */

export interface TreeNode<T> {
  readonly children: readonly T[];
}

/** Every node, parents before their children. */
export function preOrder<T extends TreeNode<T>>(root: T): T[] {
  const order: T[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    order.push(node);
    for (const child of node.children) stack.push(child);
  }
  return order;
}

/** Each node's own weight plus its descendants', given the nodes in pre-order. */
export function inclusiveTotals<T extends TreeNode<T>>(order: readonly T[], weight: (node: T) => number): Map<T, number> {
  const totals = new Map<T, number>();
  for (let i = order.length - 1; i >= 0; i--) {
    const node = order[i]!;
    let total = weight(node);
    for (const child of node.children) total += totals.get(child)!;
    totals.set(node, total);
  }
  return totals;
}
