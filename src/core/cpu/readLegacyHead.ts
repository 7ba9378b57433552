import { CallFrameTable } from './callFrameTable';
import { CpuProfileError } from './cpuProfileError';
import type { CpuProfileNode } from './cpuProfileFormat';
import type { FlatTree } from './flatTree';
import { NodeIdIndex } from './nodeIdIndex';
import { droppedTicksWarning } from './nodeProblems';
import { readPositionTicks } from './readPositionTicks';

/**
 * The legacy nested `head` tree, flattened depth-first with an explicit stack: real trees are hundreds
 * of frames deep and a recursive walk would overflow on the deep ones.
 */
export function readLegacyHead(head: Record<string, unknown>, sourceName: string, warnings: string[]): FlatTree {
  const rawNodes: Array<Record<string, unknown>> = [];
  const parentOf: number[] = [];
  const stack: Array<[Record<string, unknown>, number]> = [[head, -1]];
  while (stack.length > 0) {
    const [raw, parentIndex] = stack.pop()!;
    const index = rawNodes.length;
    rawNodes.push(raw);
    parentOf.push(parentIndex);
    const children = raw['children'];
    if (!Array.isArray(children)) continue;
    for (let k = children.length - 1; k >= 0; k--) {
      const child: unknown = children[k];
      if (typeof child !== 'object' || child === null) {
        throw new CpuProfileError(sourceName, `a child of node id ${String(raw['id'])} in the head tree is not a node.`);
      }
      stack.push([child as Record<string, unknown>, index]);
    }
  }

  const count = rawNodes.length;
  let maxId = -1;
  for (const raw of rawNodes) {
    const id = raw['id'];
    if (typeof id !== 'number' || !Number.isInteger(id)) {
      throw new CpuProfileError(sourceName, `a node of the head tree has no integer id.`);
    }
    if (id > maxId) maxId = id;
  }
  const ids = new NodeIdIndex(maxId, count);
  const nodes: CpuProfileNode[] = new Array(count);
  const parent = new Int32Array(count);
  const edgeParent = new Int32Array(count);
  const edgeChild = new Int32Array(count);
  let edgeCount = 0;
  const dropped = { count: 0 };
  const frames = new CallFrameTable();
  const nodeFrames = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const raw = rawNodes[i]!;
    const id = raw['id'] as number;
    // Some exporters nest a CDP call frame; most put its fields on the node itself.
    const frame = frames.read(raw['callFrame'] ?? raw);
    if (frame < 0) throw new CpuProfileError(sourceName, `node id ${id} of the head tree has malformed call frame fields.`);
    if (!ids.add(id, i)) throw new CpuProfileError(sourceName, `node id ${id} appears twice in the head tree.`);
    nodeFrames[i] = frame;
    nodes[i] = { id, callFrame: frames.frames[frame]!, positionTicks: readPositionTicks(raw['positionTicks'], dropped) };
    const p = parentOf[i]!;
    parent[i] = p;
    if (p >= 0) {
      edgeParent[edgeCount] = p;
      edgeChild[edgeCount++] = i;
    }
  }
  if (dropped.count > 0) warnings.push(droppedTicksWarning(dropped.count));
  return { nodes, frames: frames.frames, nodeFrames, ids, parent, edgeParent, edgeChild, edgeCount };
}
