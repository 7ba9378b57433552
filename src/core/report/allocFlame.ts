/**
 * The allocation flame graph: each process's sampling heap profile as a call tree whose weights are
 * bytes (`FlameNode.value` = self bytes), read and cleaned the way the summary's allocations are
 * (run/runAllocations.ts: positions from the CPU profile, the preload's frames pruned).
 */
import { frameCategory } from '../../shared/frameCategory';
import type { FlameNode } from '../../shared/model/reportModel';
import type { SessionRecord } from '../../shared/model/session';
import type { ProcessSummary } from '../../shared/model/summary';
import type { HeapProfile } from '../heap/heapProfileFormat';
import { readRunHeapProfiles } from '../run/runHeapProfiles';
import type { RunLayout } from '../run/runLayout';
import { MAX_FLAME_DEPTH, sortHeaviestFirst } from './flameTree';
import type { RunProfileViews } from './runProfileViews';

/** A heap profile's call tree in bytes, heaviest first; frames deeper than MAX_FLAME_DEPTH fold into the one at the limit. */
export function heapFlameTree(profile: HeapProfile): FlameNode | null {
  if (profile.nodes.length === 0) return null;
  const built: FlameNode[] = new Array(profile.nodes.length);
  const depth = new Int32Array(profile.nodes.length);
  profile.nodes.forEach((node, i) => {
    if (i > 0 && depth[node.parent]! >= MAX_FLAME_DEPTH) {
      built[i] = built[node.parent]!;
      built[i]!.value += node.selfBytes;
      depth[i] = MAX_FLAME_DEPTH;
      return;
    }
    const flame: FlameNode = {
      name: i === 0 ? 'all' : node.name === '' ? '(anonymous)' : node.name,
      value: node.selfBytes,
      children: [],
      category: frameCategory(node.name, node.url, node.line),
      url: node.url,
      line: node.line,
      column: node.column,
    };
    built[i] = flame;
    if (i > 0) {
      depth[i] = depth[node.parent]! + 1;
      built[node.parent]!.children.push(flame);
    }
  });
  const root = built[0]!;
  sortHeaviestFirst(root);
  return root;
}

/**
 * Each process's and thread's allocation flame graph, by ProcessSummary id: those whose summary has
 * allocations and whose heap profile may be read (`warnings` says why one may not).
 */
export async function readAllocFlames(
  layout: RunLayout,
  processes: readonly ProcessSummary[],
  session: SessionRecord | null,
  warnings: string[],
  profiles: RunProfileViews,
): Promise<Map<string, FlameNode>> {
  const flames = new Map<string, FlameNode>();
  const heaps = await readRunHeapProfiles(layout, processes, session, warnings, (file) => profiles.of(file).then((v) => v.frames));
  for (const [id, heap] of heaps) {
    const flame = heapFlameTree(heap.profile);
    if (flame) flames.set(id, flame);
  }
  return flames;
}
