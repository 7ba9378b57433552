import { frameCategory } from '../../shared/frameCategory';
import { flameTotals } from '../../shared/flameTotals';
import type { FlameNode } from '../../shared/model/reportModel';
import type { CpuModel } from '../cpu/cpuModel';

export type { FlameNode };

/**
 * How deep the flame graph goes. V8's sampler keeps at most 255 frames of a stack, so a real profile
 * is never near this; a crafted one can be 100,000 deep, and code that walks the tree recursively
 * (JSON.stringify for the report page and the webview message, the flame graph's own layout) would
 * overflow the stack on it.
 */
export const MAX_FLAME_DEPTH = 1000;

/**
 * The profile's own call tree (V8 already merges identical stacks), built iteratively because real
 * profiles are hundreds of frames deep. Subtrees with no time at all are dropped, and so is the
 * `(V8 Lens)` frame: V8 Lens's own agent is no part of the app's tree, its totals or a comparison
 * (the time-ordered profile keeps it, grey, so the timeline stays true). Frames deeper than
 * MAX_FLAME_DEPTH are folded into one frame at that depth, and `warnings` says so.
 */
export function buildFlameTree(model: CpuModel, warnings: string[] = []): FlameNode | null {
  const { nodes, parents } = model.profile;
  if (nodes.length === 0) return null;
  const built: (FlameNode | undefined)[] = new Array(nodes.length);
  const depth = new Int32Array(nodes.length);
  let folded = 0;
  const folds = new Set<FlameNode>();
  // Depth-first pre-order: a parent is always built before its children.
  for (let i = 0; i < nodes.length; i++) {
    if ((model.nodeTotalUs[i]! <= 0 && i !== 0) || i === model.v8LensNode) continue;
    const parent = parents[i]!;
    depth[i] = parent >= 0 ? depth[parent]! + 1 : 0;
    if (depth[i]! > MAX_FLAME_DEPTH) {
      // Below the limit: the time goes to the folded frame its branch has at the limit.
      const fold = built[parent]!;
      if (!folds.has(fold)) {
        folds.add(fold);
        fold.name = `${fold.name} (and the frames below it)`;
      }
      fold.value += model.nodeSelfUs[i]! / 1000;
      built[i] = fold;
      depth[i] = MAX_FLAME_DEPTH;
      folded++;
      continue;
    }
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
    if (parent >= 0) built[parent]?.children.push(node);
  }
  if (folded > 0) warnings.push(foldedWarning(folded));
  const root = built[0]!;
  sortHeaviestFirst(root);
  return root;
}

/**
 * What buildFlameTree says of the frames it folds, without building the tree: for a page that draws
 * the flame graph from the time-ordered profile (which folds the same frames), the tree itself is
 * never sent.
 */
export function warnFoldedFrames(model: CpuModel, warnings: string[]): void {
  const { parents } = model.profile;
  const depth = new Int32Array(parents.length);
  let folded = 0;
  for (let i = 0; i < parents.length; i++) {
    if ((model.nodeTotalUs[i]! <= 0 && i !== 0) || i === model.v8LensNode) continue;
    const parent = parents[i]!;
    depth[i] = parent >= 0 ? depth[parent]! + 1 : 0;
    if (depth[i]! > MAX_FLAME_DEPTH) {
      depth[i] = MAX_FLAME_DEPTH;
      folded++;
    }
  }
  if (folded > 0) warnings.push(foldedWarning(folded));
}

function foldedWarning(folded: number): string {
  return `flame graph: the call tree is deeper than ${MAX_FLAME_DEPTH} frames (V8 records at most 255); ${folded} deeper frame(s) are folded into the frame above them`;
}

/** "Left heavy": children by total time, so the widest stacks line up on the left. */
export function sortHeaviestFirst(root: FlameNode): void {
  const { order, totals } = flameTotals(root);
  for (const node of order) if (node.children.length > 1) node.children.sort((a, b) => totals.get(b)! - totals.get(a)!);
}
