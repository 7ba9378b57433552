import { frameCategory } from '../../shared/frameCategory';
import { flameTotals } from '../../shared/flameTotals';
import type { FlameNode } from '../../shared/model/reportModel';
import type { CpuModel } from '../cpu/cpuModel';

export type { FlameNode };

/**
 * The profile's own call tree (V8 already merges identical stacks), built iteratively because real
 * profiles are hundreds of frames deep. Subtrees with no time at all are dropped.
 */
export function buildFlameTree(model: CpuModel): FlameNode | null {
  const { nodes, parents } = model.profile;
  if (nodes.length === 0) return null;
  const built: (FlameNode | undefined)[] = new Array(nodes.length);
  // Depth-first pre-order: a parent is always built before its children.
  for (let i = 0; i < nodes.length; i++) {
    if (model.nodeTotalUs[i]! <= 0 && i !== 0) continue;
    const frame = nodes[i]!.callFrame;
    const name = frame.functionName === '' ? (i === 0 ? '(root)' : '(anonymous)') : frame.functionName;
    const node: FlameNode = {
      name: i === 0 ? 'all' : name,
      value: model.nodeSelfUs[i]! / 1000,
      children: [],
      category: frameCategory(frame.functionName, frame.url, frame.line),
      url: frame.url,
      line: frame.line,
      column: frame.column,
    };
    built[i] = node;
    const parent = parents[i]!;
    if (parent >= 0) built[parent]?.children.push(node);
  }
  const root = built[0]!;
  sortHeaviestFirst(root);
  return root;
}

/** "Left heavy": children by total time, so the widest stacks line up on the left. */
function sortHeaviestFirst(root: FlameNode): void {
  const { order, totals } = flameTotals(root);
  for (const node of order) if (node.children.length > 1) node.children.sort((a, b) => totals.get(b)! - totals.get(a)!);
}
