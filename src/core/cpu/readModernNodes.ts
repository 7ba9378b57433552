import { CallFrameTable } from './callFrameTable';
import { CpuProfileError } from './cpuProfileError';
import type { CpuProfileNode } from './cpuProfileFormat';
import type { FlatTree } from './flatTree';
import { NodeIdIndex } from './nodeIdIndex';
import { readPositionTicks } from './readPositionTicks';

type RawNode = { id?: unknown; callFrame?: unknown; children?: unknown; parent?: unknown; positionTicks?: unknown };

/**
 * The CDP `nodes` array. Links may come as `children` (Node, DevTools), as `parent` (Chrome trace
 * `ProfileChunk`s), or both; the first link found for a child wins and conflicts become a warning.
 */
export function readModernNodes(rawNodes: unknown[], sourceName: string, warnings: string[]): FlatTree {
  const count = rawNodes.length;
  let maxId = -1;
  for (let i = 0; i < count; i++) {
    const id = (rawNodes[i] as RawNode | null)?.id;
    if (typeof id !== 'number' || !Number.isInteger(id)) {
      throw new CpuProfileError(sourceName, `node #${i + 1} in the nodes list has no integer id.`);
    }
    if (id > maxId) maxId = id;
  }

  const ids = new NodeIdIndex(maxId, count);
  const frames = new CallFrameTable();
  const nodes: CpuProfileNode[] = [];
  const nodeFrames = new Int32Array(count);
  const dropped = { count: 0 };
  for (let i = 0; i < count; i++) {
    const raw = rawNodes[i] as RawNode;
    const id = raw.id as number;
    const frame = frames.read(raw.callFrame);
    if (frame < 0) throw new CpuProfileError(sourceName, `node id ${id} has a missing or malformed callFrame.`);
    if (!ids.add(id, i)) throw new CpuProfileError(sourceName, `node id ${id} appears twice in the nodes list.`);
    nodeFrames[i] = frame;
    nodes.push({ id, callFrame: frames.frames[frame]!, positionTicks: readPositionTicks(raw.positionTicks, dropped) });
  }

  const parent = new Int32Array(count).fill(-1);
  const edgeParent = new Int32Array(count);
  const edgeChild = new Int32Array(count);
  let edgeCount = 0;
  let unknownLinks = 0;
  let conflictingLinks = 0;
  const link = (p: number, c: number): void => {
    if (c < 0 || p < 0) unknownLinks++;
    else if (parent[c] === -1) {
      parent[c] = p;
      edgeParent[edgeCount] = p;
      edgeChild[edgeCount++] = c;
    } else if (parent[c] !== p) conflictingLinks++;
  };
  for (let i = 0; i < count; i++) {
    const raw = rawNodes[i] as RawNode;
    const children = raw.children;
    if (Array.isArray(children)) {
      for (let k = 0; k < children.length; k++) {
        const childId: unknown = children[k];
        link(i, typeof childId === 'number' ? ids.get(childId) : -1);
      }
    }
    if (typeof raw.parent === 'number') link(ids.get(raw.parent), i);
  }

  if (unknownLinks > 0) warnings.push(`${unknownLinks} parent/child link(s) name node ids that are not in the profile; ignored.`);
  if (conflictingLinks > 0) warnings.push(`${conflictingLinks} node(s) are listed under two different parents; the first one was kept.`);
  if (dropped.count > 0) warnings.push(`${dropped.count} malformed positionTicks entries were ignored.`);
  return { nodes, frames: frames.frames, nodeFrames, ids, parent, edgeParent, edgeChild, edgeCount };
}
