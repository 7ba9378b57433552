import { CallFrameTable } from './callFrameTable';
import { CpuProfileError } from './cpuProfileError';
import type { CpuProfileNode } from './cpuProfileFormat';
import type { FlatTree } from './flatTree';
import { NodeIdIndex } from './nodeIdIndex';
import { NodeLinks } from './nodeLinks';
import { droppedTicksWarning, duplicateId, malformedCallFrame } from './nodeProblems';
import { readPositionTicks } from './readPositionTicks';

type RawNode = { id?: unknown; callFrame?: unknown; children?: unknown; parent?: unknown; positionTicks?: unknown };

/**
 * The CDP `nodes` array, as `JSON.parse` gave it. Links may come as `children` (Node, DevTools), as
 * `parent` (Chrome trace `ProfileChunk`s), or both.
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
    if (frame < 0) throw malformedCallFrame(sourceName, id);
    if (!ids.add(id, i)) throw duplicateId(sourceName, id);
    nodeFrames[i] = frame;
    nodes.push({ id, callFrame: frames.frames[frame]!, positionTicks: readPositionTicks(raw.positionTicks, dropped) });
  }

  const links = new NodeLinks(count, ids);
  for (let i = 0; i < count; i++) {
    const raw = rawNodes[i] as RawNode;
    const children = raw.children;
    if (Array.isArray(children)) for (let k = 0; k < children.length; k++) links.addChildId(i, children[k]);
    if (typeof raw.parent === 'number') links.addParentId(i, raw.parent);
  }

  links.warnings(warnings);
  if (dropped.count > 0) warnings.push(droppedTicksWarning(dropped.count));
  return { nodes, frames: frames.frames, nodeFrames, ids, ...links.edges() };
}
