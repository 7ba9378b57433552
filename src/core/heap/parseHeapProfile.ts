import { HeapProfileError } from './heapProfileError';
import type { HeapNode, HeapProfile } from './heapProfileFormat';
import { jsonBudgetProblem, type JsonLimits } from '../util/jsonBudget';

/**
 * What a `.heapprofile` may make `JSON.parse` build, checked before it runs (util/jsonBudget.ts):
 * its tree of allocating stacks nests two levels per frame (walked without recursion: 100,000 frames
 * deep reads); a real one is thousands of nodes.
 */
export const HEAP_PROFILE_JSON_LIMITS: JsonLimits = { containers: 8_000_000, values: 50_000_000, depth: 250_000 };

/**
 * A sampling heap profile's text → its normalised call tree. Walked without recursion (a crafted
 * file can nest deeper than the stack); a node that is not a node is dropped with a warning, a
 * file that is not a heap profile at all is a HeapProfileError.
 */
export function parseHeapProfile(text: string, sourceName: string): HeapProfile {
  if (text.trim() === '') throw new HeapProfileError(sourceName, 'the file is empty.');
  const over = jsonBudgetProblem(text, HEAP_PROFILE_JSON_LIMITS);
  if (over !== null) throw new HeapProfileError(sourceName, `${over}, past what V8 Lens reads from a profile.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HeapProfileError(sourceName, 'it is not JSON (truncated?).');
  }
  if (!isObject(value) || !isObject(value['head'])) {
    const what = isObject(value) && Array.isArray(value['nodes']) ? 'it is a CPU profile (.cpuprofile), not a heap profile' : 'it has no head node, so it is not a sampling heap profile';
    throw new HeapProfileError(sourceName, `${what}.`);
  }
  const nodes: HeapNode[] = [];
  const warnings: string[] = [];
  let dropped = 0;
  let totalBytes = 0;
  const pending: { raw: unknown; parent: number }[] = [{ raw: value['head'], parent: -1 }];
  while (pending.length > 0) {
    const { raw, parent } = pending.pop()!;
    const node = readNode(raw);
    if (node === null) {
      dropped++;
      continue;
    }
    const index = nodes.length;
    nodes.push({ ...node, parent, children: [] });
    if (parent >= 0) nodes[parent]!.children.push(index);
    totalBytes += node.selfBytes;
    const children = (raw as Record<string, unknown>)['children'];
    if (Array.isArray(children)) for (let i = children.length - 1; i >= 0; i--) pending.push({ raw: children[i], parent: index });
  }
  if (nodes.length === 0) throw new HeapProfileError(sourceName, 'its head is not a call-tree node.');
  if (dropped > 0) warnings.push(`${dropped} malformed call-tree node(s) were left out with what they allocated.`);
  const samples = value['samples'];
  return { nodes, totalBytes, sampleCount: Array.isArray(samples) ? samples.length : 0, warnings };
}

function readNode(raw: unknown): Omit<HeapNode, 'parent' | 'children'> | null {
  if (!isObject(raw) || !isObject(raw['callFrame'])) return null;
  const frame = raw['callFrame'];
  const selfSize = raw['selfSize'];
  // Bytes: a negative, fractional-beyond-reason or astronomically large figure is not V8's.
  if (typeof selfSize !== 'number' || !(selfSize >= 0 && selfSize < 2 ** 53)) return null;
  const line = typeof frame['lineNumber'] === 'number' && frame['lineNumber'] >= 0 ? frame['lineNumber'] + 1 : 0;
  const column = typeof frame['columnNumber'] === 'number' && frame['columnNumber'] >= 0 ? frame['columnNumber'] + 1 : 0;
  return {
    name: typeof frame['functionName'] === 'string' && frame['functionName'] !== '' ? frame['functionName'] : '(anonymous)',
    url: typeof frame['url'] === 'string' ? frame['url'] : '',
    scriptId: typeof frame['scriptId'] === 'string' || typeof frame['scriptId'] === 'number' ? String(frame['scriptId']) : '',
    line: Number.isInteger(line) ? line : 0,
    column: Number.isInteger(column) ? column : 0,
    selfBytes: selfSize,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
