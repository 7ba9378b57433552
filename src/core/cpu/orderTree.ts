import type { CpuProfileNode } from './cpuProfileFormat';
import type { FlatTree } from './flatTree';

export interface OrderedTree {
  /** Depth-first pre-order: parents before children, every subtree contiguous. */
  nodes: CpuProfileNode[];
  parents: Int32Array;
  /** Frame index per node, in the new order. */
  nodeFrames: Int32Array;
  /** File-order index → pre-order index. */
  newIndex: Int32Array;
}

/**
 * Puts the nodes in depth-first pre-order with an explicit stack (no recursion: stacks are hundreds
 * deep). Nodes that no root reaches (a parent/child cycle in a damaged file) are cut loose and become
 * roots of their own, so every node is placed exactly once and nothing can loop.
 */
export function orderTree(flat: FlatTree, warnings: string[]): OrderedTree {
  const count = flat.nodes.length;
  const { first, children } = childLists(flat);

  const order = new Int32Array(count);
  const parents = new Int32Array(count);
  const newIndex = new Int32Array(count).fill(-1);
  const placedParent = new Int32Array(count).fill(-1);
  const stack = new Int32Array(count);
  let placed = 0;

  const walkFrom = (root: number): void => {
    let top = 0;
    stack[top++] = root;
    newIndex[root] = -2; // queued
    while (top > 0) {
      const node = stack[--top]!;
      const at = placed++;
      order[at] = node;
      newIndex[node] = at;
      const p = placedParent[node]!;
      parents[at] = p < 0 ? -1 : newIndex[p]!;
      // Pushed in reverse so the first listed child is visited first.
      for (let k = first[node + 1]! - 1; k >= first[node]!; k--) {
        const child = children[k]!;
        if (newIndex[child] !== -1) continue; // only reachable again through a cycle
        newIndex[child] = -2;
        placedParent[child] = node;
        stack[top++] = child;
      }
    }
  };

  let roots = 0;
  for (let i = 0; i < count; i++) {
    if (flat.parent[i] === -1) {
      roots++;
      walkFrom(i);
    }
  }
  let cut = 0;
  for (let i = 0; i < count; i++) {
    if (newIndex[i] === -1) {
      cut++;
      walkFrom(i);
    }
  }
  if (roots > 1) warnings.push(`${roots} nodes have no parent; each is treated as a root.`);
  if (cut > 0) warnings.push(`${cut} node(s) sit in a parent/child cycle; the cycle was cut there.`);

  const nodes: CpuProfileNode[] = new Array(count);
  const nodeFrames = new Int32Array(count);
  for (let k = 0; k < count; k++) {
    nodes[k] = flat.nodes[order[k]!]!;
    nodeFrames[k] = flat.nodeFrames[order[k]!]!;
  }
  return { nodes, parents, nodeFrames, newIndex };
}

/** Children per node as one flat array (CSR), keeping the order the file lists them in. */
function childLists(flat: FlatTree): { first: Int32Array; children: Int32Array } {
  const count = flat.nodes.length;
  const first = new Int32Array(count + 1);
  for (let e = 0; e < flat.edgeCount; e++) first[flat.edgeParent[e]! + 1]!++;
  for (let i = 0; i < count; i++) first[i + 1]! += first[i]!;
  const fill = first.slice(0, count);
  const children = new Int32Array(flat.edgeCount);
  for (let e = 0; e < flat.edgeCount; e++) children[fill[flat.edgeParent[e]!]!++] = flat.edgeChild[e]!;
  return { first, children };
}
