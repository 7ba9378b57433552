import type { HeapNode, HeapProfile } from './heapProfileFormat';

/** What the same isolate's CPU profile knows about its scripts: urls by script id, function starts by script id and name. */
export interface ScriptFrames {
  urls: ReadonlyMap<string, string>;
  /** Key: `${scriptId}\0${functionName}`; 1-based. */
  starts: ReadonlyMap<string, { line: number; column: number }>;
}

/**
 * Fills in the url and start of frames V8 left unnamed in the heap profile (Node 20 does so for
 * the main script's functions) from the same isolate's CPU profile: both name a script by the
 * same id. A name the CPU profile has twice in one script keeps no position (it could be either).
 * Returns how many frames were resolved.
 */
export function resolveHeapPositions(profile: HeapProfile, frames: ScriptFrames): number {
  let resolved = 0;
  for (const node of profile.nodes) {
    if (node.url !== '' || node.scriptId === '' || node.scriptId === '0') continue;
    const url = frames.urls.get(node.scriptId);
    if (url === undefined) continue;
    node.url = url;
    const start = node.line === 0 ? frames.starts.get(`${node.scriptId}\u0000${node.name === '(anonymous)' ? '' : node.name}`) : undefined;
    if (start) setStart(node, start);
    resolved++;
  }
  return resolved;
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
