/**
 * Tells a CPU profile (modern `nodes` or legacy `head`) from the other JSON files that sit next to it
 * in a run folder or get opened by mistake, so the user learns what the file actually is.
 */
export type ProfileShape =
  | { kind: 'modern'; value: Record<string, unknown> }
  | { kind: 'legacy'; value: Record<string, unknown> }
  | { kind: 'other'; problem: string };

export function recognizeProfileShape(value: unknown): ProfileShape {
  if (Array.isArray(value)) {
    const first: unknown = value[0];
    if (isObject(first) && 'ph' in first && 'pid' in first) return other('it is a Chrome trace (trace events), not a .cpuprofile.');
    return other('it is a JSON array, not a CPU profile (expected an object with nodes, samples and timeDeltas).');
  }
  if (!isObject(value)) {
    return other(`it is JSON but not a CPU profile (the whole file is ${value === null ? 'null' : `a ${typeof value}`}).`);
  }
  if (isObject(value['snapshot']) || ('strings' in value && 'edges' in value)) {
    return other('it is a heap snapshot (.heapsnapshot), not a CPU profile.');
  }
  if ('traceEvents' in value) return other('it is a Chrome trace (trace events), not a .cpuprofile.');
  const head = value['head'];
  // A heap sampling profile also has a `head` tree, but with sizes, and samples that are objects.
  const samples = value['samples'];
  if (isObject(head) && ('selfSize' in head || (Array.isArray(samples) && isObject(samples[0])))) {
    return other('it is a heap profile (.heapprofile), not a CPU profile.');
  }
  const nodes = value['nodes'];
  if (Array.isArray(nodes) && (nodes.length === 0 || isObject(nodes[0]))) return { kind: 'modern', value };
  if (isObject(head)) return { kind: 'legacy', value };
  if ('nodes' in value) return other(`it has a nodes field, but that is ${describeValue(nodes)}, not a list of call-tree nodes.`);
  const keys = Object.keys(value);
  const found = keys.length === 0 ? 'it is an empty object' : `it has ${listKeys(keys)}`;
  return other(`it is JSON but not a CPU profile: ${found}, not nodes, samples and timeDeltas.`);
}

function other(problem: string): ProfileShape {
  return { kind: 'other', problem };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length === 0 ? 'nothing' : value[0] === null ? 'nulls' : `${typeof value[0]}s`}`;
  return `a ${typeof value}`;
}

function listKeys(keys: string[]): string {
  const shown = keys.slice(0, 4).map((k) => JSON.stringify(k.length > 30 ? `${k.slice(0, 30)}…` : k));
  return `${keys.length === 1 ? 'the key' : 'the keys'} ${shown.join(', ')}${keys.length > 4 ? ', …' : ''}`;
}
