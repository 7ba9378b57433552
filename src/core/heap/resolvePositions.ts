import type { HeapNode, HeapProfile } from './heapProfileFormat';

/** What the same isolate's CPU profile knows about its scripts: urls by script id, function starts by script id and name. */
export interface ScriptFrames {
  urls: ReadonlyMap<string, string>;
  /** Key: `${scriptId}\0${functionName}`; 1-based. */
  starts: ReadonlyMap<string, { line: number; column: number }>;
  /** The CPU profile's call tree, to place functions a name cannot (anonymous ones); absent: names only. */
  calls?: CallTree;
}

/** A CPU profile's call tree by reference: node i's parent (-1 for the root) and its call frame. */
export interface CallTree {
  parents: ArrayLike<number>;
  nodeFrames: ArrayLike<number>;
  /** 1-based positions, 0 = none; functionName '' for anonymous functions. */
  frames: readonly { functionName: string; scriptId: string; line: number; column: number }[];
}

/**
 * Fills in the url and start of frames V8 left unnamed in the heap profile (Node 20 does so for
 * the main script's functions) from the same isolate's CPU profile: both name a script by the
 * same id. A name the CPU profile has twice in one script keeps no position (it could be either).
 * Returns how many frames were resolved.
 */
export function resolveHeapPositions(profile: HeapProfile, frames: ScriptFrames): number {
  let resolved = 0;
  const byPath = frames.calls ? startsByCallPath(profile, frames.calls) : null;
  profile.nodes.forEach((node, i) => {
    if (node.url !== '' || node.scriptId === '' || node.scriptId === '0') return;
    const url = frames.urls.get(node.scriptId);
    if (url === undefined) return;
    node.url = url;
    const start = node.line === 0 ? (byPath?.get(i) ?? frames.starts.get(`${node.scriptId}\u0000${frameName(node.name)}`)) : undefined;
    if (start) setStart(node, start);
    resolved++;
  });
  return resolved;
}

/** How many CPU nodes one heap node may stand for before its place is given up as unknowable. */
const MAX_CANDIDATES = 256;
/** How far below its caller's CPU node a callee is looked for: the CPU profile sees inlined functions, the heap profile does not. */
const INLINED_DEPTH = 3;

const frameName = (name: string) => (name === '(anonymous)' ? '' : name);

/**
 * The start of each heap frame V8 left without a position, from the CPU profile's node at the same
 * place of the call tree: the same script and name under callers that match all the way up. Two
 * anonymous functions of one script are told apart by who called them (a route handler under the
 * framework's dispatch, a timer callback under the timers). Only a place every matching CPU node
 * agrees on is given. Key: index in `profile.nodes`.
 */
function startsByCallPath(profile: HeapProfile, calls: CallTree): Map<number, { line: number; column: number }> {
  const children: number[][] = Array.from({ length: calls.parents.length }, () => []);
  for (let i = 1; i < calls.parents.length; i++) {
    const parent = calls.parents[i]!;
    if (parent >= 0 && parent < children.length) children[parent]!.push(i);
  }
  const frameOf = (cpuNode: number) => calls.frames[calls.nodeFrames[cpuNode]!]!;
  const matches = (cpuNode: number, node: HeapNode) => {
    const f = frameOf(cpuNode);
    return f.scriptId === node.scriptId && f.functionName === frameName(node.name) && (node.line === 0 || (f.line === node.line && f.column === node.column));
  };
  /** The CPU nodes under `under` that are `node`: its children, else (inlining) deeper descendants. */
  const find = (under: readonly number[], node: HeapNode): number[] => {
    let level = under;
    for (let depth = 0; depth < INLINED_DEPTH && level.length > 0; depth++) {
      const next: number[] = [];
      const found: number[] = [];
      for (const c of level) for (const child of children[c]!) (matches(child, node) ? found : next).push(child);
      if (found.length > 0) return found.length > MAX_CANDIDATES ? [] : found;
      if (next.length > MAX_CANDIDATES) return [];
      level = next;
    }
    return [];
  };
  const placeOf: number[][] = new Array(profile.nodes.length);
  const out = new Map<number, { line: number; column: number }>();
  // Pre-order: a heap node's parent is placed before it. Both roots are `(root)`.
  profile.nodes.forEach((node, i) => {
    if (i === 0 || node.parent < 0) {
      placeOf[i] = calls.parents.length > 0 ? [0] : [];
      return;
    }
    const above = placeOf[node.parent] ?? [];
    // V8's own frames (push, Map, (V8 API)) are in the heap profile only: they stand where their caller does.
    if (node.scriptId === '' || node.scriptId === '0') {
      placeOf[i] = above;
      return;
    }
    const here = find(above, node);
    placeOf[i] = here;
    if (node.line !== 0 || here.length === 0) return;
    const first = frameOf(here[0]!);
    if (first.line > 0 && here.every((c) => frameOf(c).line === first.line && frameOf(c).column === first.column)) out.set(i, { line: first.line, column: first.column });
  });
  return out;
}

function setStart(node: HeapNode, start: { line: number; column: number }): void {
  node.line = start.line;
  node.column = start.column;
}

/**
 * The profile without the subtrees under frames that are not the app's (V8 Lens's own preload):
 * their bytes leave the totals too. Returns the bytes taken out.
 */
export function pruneFrames(profile: HeapProfile, isForeign: (node: HeapNode) => boolean): number {
  const keep = new Array<boolean>(profile.nodes.length).fill(true);
  let removed = 0;
  // Pre-order: a parent is decided before its children.
  profile.nodes.forEach((node, i) => {
    if (i === 0) return;
    if (!keep[node.parent]! || isForeign(node)) {
      keep[i] = false;
      removed += node.selfBytes;
    }
  });
  if (removed === 0 && keep.every(Boolean)) return 0;
  const newIndex = new Map<number, number>();
  const nodes: HeapNode[] = [];
  profile.nodes.forEach((node, i) => {
    if (!keep[i]) return;
    newIndex.set(i, nodes.length);
    nodes.push({ ...node, parent: node.parent < 0 ? -1 : newIndex.get(node.parent)!, children: [] });
  });
  nodes.forEach((node, i) => {
    if (node.parent >= 0) nodes[node.parent]!.children.push(i);
  });
  profile.nodes = nodes;
  profile.totalBytes -= removed;
  return removed;
}
