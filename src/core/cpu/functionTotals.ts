/**
 * Inclusive time per function, counting a function once per sample even when it recurses.
 *
 * Equivalent to walking every sample's stack with a "seen" marker, but in one pass over the tree:
 * a sample's stack is the path from the root to its leaf, so a function's total is the sum of the
 * subtree totals of its *outermost* nodes (those with no ancestor of the same function); the nodes
 * below them are inside those subtrees already. The pre-order walk keeps, per function, how many of
 * the currently open ancestors belong to it. O(nodes), however deep or recursive the profile is.
 *
 * `parents` must be in pre-order (parents first, subtrees contiguous), as `CpuProfile` guarantees.
 */
export function functionTotals(
  parents: Int32Array,
  nodeTotalUs: Float64Array,
  nodeFunction: Int32Array,
  functionCount: number,
): Float64Array {
  const count = parents.length;
  const totals = new Float64Array(functionCount);
  const open = new Int32Array(functionCount);

  // Subtree sizes tell where each node's subtree ends in pre-order.
  const size = new Int32Array(count).fill(1);
  for (let k = count - 1; k > 0; k--) {
    const p = parents[k]!;
    if (p >= 0) size[p]! += size[k]!;
  }

  const stack = new Int32Array(count);
  let top = 0;
  for (let k = 0; k < count; k++) {
    while (top > 0 && stack[top - 1]! + size[stack[top - 1]!]! <= k) open[nodeFunction[stack[--top]!]!]!--;
    const f = nodeFunction[k]!;
    if (open[f] === 0) totals[f]! += nodeTotalUs[k]!;
    open[f]!++;
    stack[top++] = k;
  }
  return totals;
}

/** Inclusive time per tree node: its self time plus its descendants'. */
export function nodeTotals(parents: Int32Array, nodeSelfUs: Float64Array): Float64Array {
  const totals = nodeSelfUs.slice();
  for (let k = parents.length - 1; k > 0; k--) {
    const p = parents[k]!;
    if (p >= 0) totals[p]! += totals[k]!;
  }
  return totals;
}
