import type { CpuCallFrame, CpuProfileNode } from './cpuProfileFormat';
import type { NodeIdIndex } from './nodeIdIndex';

/**
 * The node list as read from either format, before it is put in depth-first order: nodes in file
 * order, their ids, and the parent → child links in the order the file lists them.
 */
export interface FlatTree {
  nodes: CpuProfileNode[];
  /** Distinct call frames, and the index of each node's frame among them. */
  frames: CpuCallFrame[];
  nodeFrames: Int32Array;
  ids: NodeIdIndex;
  /** Parent's index per node (file order); -1 when none was found. */
  parent: Int32Array;
  /** Links in listing order: edgeParent[k] → edgeChild[k]; at most one per child. */
  edgeParent: Int32Array;
  edgeChild: Int32Array;
  edgeCount: number;
}
