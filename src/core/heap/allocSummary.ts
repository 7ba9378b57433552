import type { AllocFunctionSummary, AllocSummary } from '../../shared/model/summary';
import { compareText } from '../util/compareText';
import type { HeapProfile } from './heapProfileFormat';

/** How many allocating functions a summary keeps (sorted by their own bytes). */
export const MAX_ALLOC_FUNCTIONS = 200;

export interface AllocContext {
  /** The time the profile covers, for the rate; null when unknown. */
  durationMs: number | null;
  samplingIntervalBytes: number;
  /** Requests served in the same time (under load), for bytes per request; null without load. */
  requests: number | null;
  /** Heap in use when sampling stopped; null when not recorded. */
  liveAtEndBytes: number | null;
}

/**
 * Which functions allocate, from a sampling heap profile that kept the garbage: each function's
 * own bytes (allocated in its body) and its total (with what it calls; a recursive function is
 * counted once per call path), and its share of all that was allocated.
 */
export function summarizeAllocations(profile: HeapProfile, context: AllocContext): AllocSummary {
  const { nodes, totalBytes } = profile;
  const keyOf = (i: number) => {
    const n = nodes[i]!;
    return `${n.name}\u0000${n.url}\u0000${n.line}\u0000${n.column}`;
  };
  // Inclusive bytes of every subtree: nodes are in pre-order, so children come after their parent.
  const subtree = new Float64Array(nodes.length);
  for (let i = nodes.length - 1; i >= 0; i--) {
    subtree[i]! += nodes[i]!.selfBytes;
    const parent = nodes[i]!.parent;
    if (parent >= 0) subtree[parent]! += subtree[i]!;
  }
  const byFunction = new Map<string, AllocFunctionSummary>();
  const onPath = new Map<string, number>();
  // Depth-first with explicit enter/leave, so a function already on the path is not counted again.
  const stack: { index: number; leaving: boolean }[] = [{ index: 0, leaving: false }];
  while (stack.length > 0) {
    const { index, leaving } = stack.pop()!;
    const key = keyOf(index);
    if (leaving) {
      const depth = onPath.get(key)! - 1;
      if (depth === 0) onPath.delete(key);
      else onPath.set(key, depth);
      continue;
    }
    const node = nodes[index]!;
    if (index !== 0) {
      let entry = byFunction.get(key);
      if (!entry) {
        entry = { name: node.name, url: node.url, line: node.line, column: node.column, selfBytes: 0, totalBytes: 0, share: 0 };
        byFunction.set(key, entry);
      }
      entry.selfBytes += node.selfBytes;
      if (!onPath.has(key)) entry.totalBytes += subtree[index]!;
    }
    onPath.set(key, (onPath.get(key) ?? 0) + 1);
    stack.push({ index, leaving: true });
    for (let c = node.children.length - 1; c >= 0; c--) stack.push({ index: node.children[c]!, leaving: false });
  }
  const functions = [...byFunction.values()]
    .filter((f) => f.selfBytes > 0 || f.totalBytes > 0)
    .map((f) => ({ ...f, share: totalBytes > 0 ? f.selfBytes / totalBytes : 0 }))
    .sort((a, b) => b.selfBytes - a.selfBytes || compareText(a.name, b.name))
    .slice(0, MAX_ALLOC_FUNCTIONS);
  const seconds = context.durationMs !== null && context.durationMs > 0 ? context.durationMs / 1000 : null;
  return {
    samplingIntervalBytes: context.samplingIntervalBytes,
    totalBytes,
    bytesPerSecond: seconds !== null ? totalBytes / seconds : null,
    bytesPerRequest: context.requests !== null && context.requests > 0 ? totalBytes / context.requests : null,
    liveAtEndBytes: context.liveAtEndBytes,
    sampleCount: profile.sampleCount,
    functions,
  };
}

/**
 * What the allocation figures cannot tell while V8 inlines: an inlined function's allocations are
 * given to the function it was inlined into. Measured on the demo service under load: `buildOrder`
 * made 74% of the bytes with inlining off; with it on, it showed as 0% on Node 20 and 22 (all of it
 * went to its caller) and, run to run, 18% or 77% on Node 24. So it applies on every Node V8 Lens
 * supports whenever inlining is on; null when the run sampled exact sites. `calleesOf` names what the
 * CPU profile saw the function call (the CPU profiler sees through inlining), to say where to look.
 */
export function inliningCaveat(alloc: Pick<AllocSummary, 'functions'>, exactSites: boolean, calleesOf: (f: AllocFunctionSummary) => readonly string[]): string | null {
  if (exactSites) return null;
  const top = alloc.functions.find((f) => f.url !== '' && f.share >= 0.1);
  let who = 'a function may include what the functions it calls allocated';
  if (top) {
    const callees = calleesOf(top).slice(0, 3);
    const seen = callees.length > 0 ? ` (the CPU profile sees ${callees.join(', ')} run under it)` : '';
    who = `${top.name} (${(top.share * 100).toFixed(0)}%) may include what the functions it calls allocated${seen}`;
  }
  return `V8 gives an inlined function's allocations to the function it was inlined into: ${who}. For exact sites, profile with exact allocation sites (inlining off, which slows the app down).`;
}
