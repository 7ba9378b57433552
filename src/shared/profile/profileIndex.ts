/**
 * What every view of a TimeProfile needs, computed once per profile: when each span starts, each
 * node's depth, and whether a node is the outermost call of its function on its stack (so a
 * recursive function's total counts each sample once). Node-free: the page and the tests share it.
 */
import type { FrameCategory } from '../frameCategory';
import { TIME_PROFILE_CATEGORIES, type TimeProfile } from '../model/timeProfile';

/** A range on the profile's own axis, µs after its first sample. */
export interface ProfileRange {
  fromUs: number;
  toUs: number;
}

export interface FunctionInfo {
  name: string;
  url: string;
  line: number;
  column: number;
  category: FrameCategory;
}

export class ProfileIndex {
  private spanStarts: Float64Array | null = null;
  readonly depth: Int32Array;
  private outermostNodes: Uint8Array | null = null;
  readonly nodeCount: number;
  readonly functionCount: number;

  constructor(readonly profile: TimeProfile) {
    const { nodeParent, nodeFn } = profile;
    this.nodeCount = nodeFn.length;
    this.functionCount = profile.fnName.length;
    this.depth = new Int32Array(this.nodeCount);
    for (let i = 0; i < this.nodeCount; i++) {
      const parent = nodeParent[i]!;
      this.depth[i] = parent >= 0 ? this.depth[parent]! + 1 : 0;
    }
  }

  /** Start of each span, µs after the first sample. Made on first use: the flame graph does not need it. */
  get spanStartUs(): Float64Array {
    if (this.spanStarts !== null) return this.spanStarts;
    const { spanDeltaUs } = this.profile;
    const starts = (this.spanStarts = new Float64Array(spanDeltaUs.length));
    let t = 0;
    for (let i = 0; i < spanDeltaUs.length; i++) starts[i] = t += spanDeltaUs[i]!;
    return starts;
  }

  /**
   * 1 when no ancestor of the node runs the same function. Made on first use: the flame graph,
   * drawn first, does not need it.
   */
  get outermost(): Uint8Array {
    if (this.outermostNodes !== null) return this.outermostNodes;
    const { nodeParent, nodeFn } = this.profile;
    const outermost = (this.outermostNodes = new Uint8Array(this.nodeCount));
    if (!this.outermostInPreOrder(nodeParent, nodeFn, outermost)) {
      for (let i = 0; i < this.nodeCount; i++) {
        let outer = 1;
        for (let a = nodeParent[i]!; a >= 0; a = nodeParent[a]!) {
          if (nodeFn[a] === nodeFn[i]) {
            outer = 0;
            break;
          }
        }
        outermost[i] = outer;
      }
    }
    return outermost;
  }

  /**
   * `outermost` in one pass when the nodes are in pre-order (each subtree contiguous after its
   * root), counting each function's frames on the current stack: a walk up every node's ancestors
   * is a 400-deep stack times 90,000 nodes. False, with nothing kept, when they are not.
   */
  private outermostInPreOrder(nodeParent: ArrayLike<number>, nodeFn: ArrayLike<number>, outermost: Uint8Array): boolean {
    const onStack = new Int32Array(this.functionCount + 1);
    const stack: number[] = [];
    for (let i = 0; i < this.nodeCount; i++) {
      const parent = nodeParent[i]!;
      while (stack.length > 0 && stack[stack.length - 1] !== parent) onStack[nodeFn[stack.pop()!]!]!--;
      if (parent >= 0 && stack.length === 0) return false;
      const fn = nodeFn[i]!;
      if (!(fn >= 0 && fn < this.functionCount)) return false;
      outermost[i] = onStack[fn] === 0 ? 1 : 0;
      onStack[fn]!++;
      stack.push(i);
    }
    return true;
  }

  fn(index: number): FunctionInfo {
    const p = this.profile;
    return {
      name: p.strings[p.fnName[index]!] ?? '',
      url: p.strings[p.fnUrl[index]!] ?? '',
      line: p.fnLine[index]!,
      column: p.fnColumn[index]!,
      category: TIME_PROFILE_CATEGORIES[p.fnCategory[index]!] ?? 'native',
    };
  }

  spanEndUs(span: number): number {
    const starts = this.spanStartUs;
    return span + 1 < starts.length ? starts[span + 1]! : this.profile.durationUs;
  }

  /**
   * Each node's own time within `range` (the whole profile when null), µs. Before its spans are
   * decoded, a packed profile has only the whole profile's (`nodeSelfUs`).
   */
  selfUs(range: ProfileRange | null): Float64Array {
    if (range === null) {
      const shipped = this.profile.nodeSelfUs;
      if (this.profile.spanNode.length === 0 && shipped !== undefined && shipped.length === this.nodeCount) return Float64Array.from(shipped);
      return spanSelfUs(this.profile, this.nodeCount);
    }
    const self = new Float64Array(this.nodeCount);
    const nodes = this.profile.spanNode;
    const from = range ? range.fromUs : -Infinity;
    const to = range ? range.toUs : Infinity;
    const starts = this.spanStartUs;
    const durationUs = this.profile.durationUs;
    for (let s = 0; s < nodes.length; s++) {
      const start = Math.max(from, starts[s]!);
      const end = Math.min(to, s + 1 < starts.length ? starts[s + 1]! : durationUs);
      if (end > start) self[nodes[s]!]! += end - start;
    }
    return self;
  }

  /** Each node's self time plus its descendants'. */
  totalUs(self: Float64Array): Float64Array {
    const total = Float64Array.from(self);
    const parents = this.profile.nodeParent;
    for (let i = this.nodeCount - 1; i > 0; i--) {
      const parent = parents[i]!;
      if (parent >= 0) total[parent]! += total[i]!;
    }
    return total;
  }
}

/**
 * Each node's own time over the whole profile, µs: every span's length added to its node (the last
 * span runs to `durationUs`). The same sums in the same order as `ProfileIndex.selfUs(null)` makes
 * them, so the figure the page gets ahead of the spans is the one it would compute from them.
 */
export function spanSelfUs(profile: Pick<TimeProfile, 'spanNode' | 'spanDeltaUs' | 'durationUs'>, nodeCount: number): Float64Array {
  const self = new Float64Array(nodeCount);
  const { spanNode, spanDeltaUs } = profile;
  const n = Math.min(spanNode.length, spanDeltaUs.length);
  let start = 0;
  for (let s = 0; s < n; s++) {
    start += spanDeltaUs[s]!;
    const end = s + 1 < n ? start + spanDeltaUs[s + 1]! : profile.durationUs;
    if (end > start) self[spanNode[s]!]! += end - start;
  }
  return self;
}
