/**
 * A pprof file (profile.proto, gzipped or not) from a fleet's profiler or Node's own agents
 * (`@datadog/pprof`, `@pyroscope/nodejs`) into the profiles V8 Lens reads: a time profile (cpu or
 * wall time) becomes a CpuProfile, a heap profile (space in bytes) a HeapProfile. pprof keeps each
 * stack's totals, not when its samples were taken: the CpuProfile has one sample per stack lasting
 * its total, so figures match and there is no time order (no timeline).
 */
import type { CpuCallFrame, CpuProfile, CpuProfileNode } from '../cpu/cpuProfileFormat';
import type { HeapNode, HeapProfile } from '../heap/heapProfileFormat';
import { UserError } from '../util/errors';
import { v8LensFunctionName } from './pprofNames';
import { GzipError, PprofLimitError, decodeGzippedProfileProto, decodeProfileProto, type DecodedPprof, type PprofLocationEntry } from './profileProto';
import { ProtoError } from './protoReader';

export type PprofContent =
  | {
      kind: 'cpu';
      profile: CpuProfile;
      /** V8's samples behind it (a `samples`/`sample` count type), and their interval (the period); null when the file has none. */
      sampleCount: number | null;
      sampleIntervalMs: number | null;
      note: string;
      /** What was put right while reading (negative values, bad string indices…), one line each. */
      warnings: string[];
    }
  | { kind: 'heap'; profile: HeapProfile; samplingIntervalBytes: number | null; inUse: boolean; note: string; warnings: string[] };

const GZIP_MAGIC = [0x1f, 0x8b];

export function looksLikeGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
}

/** The most distinct stacks (call-tree nodes) read from one pprof: a real service has tens of thousands. */
export const PPROF_TREE_NODE_LIMIT = 4_000_000;

/** profile.proto, gzipped or not, decoded within PPROF_LIMITS; a one-line UserError otherwise. */
export async function decodePprof(bytes: Uint8Array, sourceName: string): Promise<DecodedPprof> {
  let profile: DecodedPprof;
  try {
    profile = looksLikeGzip(bytes) ? await decodeGzippedProfileProto(bytes) : decodeProfileProto(bytes);
  } catch (err) {
    if (err instanceof GzipError) throw new UserError(`${sourceName}: not a readable gzip file (${err.message}); is it cut short?`);
    if (err instanceof PprofLimitError) throw new UserError(`${sourceName} is refused: ${err.message}`);
    if (err instanceof ProtoError) throw new UserError(`${sourceName} is not a pprof profile (profile.proto): ${err.message}`);
    throw err;
  }
  if (profile.sampleTypes.length === 0) throw new UserError(`${sourceName} is not a pprof profile: it has no sample types`);
  return profile;
}

const TIME_UNITS: Record<string, number> = { nanoseconds: 1e-3, microseconds: 1, milliseconds: 1e3, seconds: 1e6 };

/** What the profile holds, converted; a one-line UserError for a kind V8 Lens does not read. */
export async function readPprof(bytes: Uint8Array, sourceName: string): Promise<PprofContent> {
  const profile = await decodePprof(bytes, sourceName);
  const warnings = [...profile.warnings];
  let badStrings = 0;
  const str = (i: number) => {
    const s = profile.strings[i];
    if (s === undefined && i !== 0) badStrings++;
    return s ?? '';
  };
  const types = profile.sampleTypes.map((t) => ({ type: str(t.type), unit: str(t.unit) }));
  const described = cut(types.map((t) => `${t.type}/${t.unit}`).join(', '));
  const defaultType = str(profile.defaultSampleType);
  const badStringWarning = () => (badStrings > 0 ? [`${badStrings.toLocaleString('en-US')} string index${badStrings === 1 ? '' : 'es'} past the string table ${badStrings === 1 ? 'was' : 'were'} read as empty`] : []);

  const space = pickIndex(types, (t) => t.unit === 'bytes' && /(^|_)space$/.test(t.type), defaultType);
  if (space !== -1) {
    const inUse = types[space]!.type.startsWith('inuse');
    const periodType = profile.periodType ? { type: str(profile.periodType.type), unit: str(profile.periodType.unit) } : null;
    const interval = periodType?.unit === 'bytes' && profile.period > 0 ? profile.period : null;
    const heap = heapFromPprof(profile, space, str, sourceName);
    return {
      kind: 'heap',
      profile: heap,
      samplingIntervalBytes: interval,
      inUse,
      note: inUse
        ? `a pprof heap profile (${described}): ${cut(types[space]!.type)} counts the bytes still in use when it was taken, not all that was allocated`
        : `a pprof heap profile (${described})`,
      warnings: [...warnings, ...badStringWarning()],
    };
  }
  const time = pickIndex(types, (t) => t.unit in TIME_UNITS, defaultType);
  if (time !== -1) {
    const scale = TIME_UNITS[types[time]!.unit]!;
    const counted = types.findIndex((t) => t.unit === 'count' && /^samples?$/.test(t.type));
    const periodUnit = profile.periodType ? str(profile.periodType.unit) : '';
    const period = profile.period;
    const cpu = cpuFromPprof(profile, time, scale, sourceName, str);
    return {
      kind: 'cpu',
      profile: cpu,
      sampleCount: counted === -1 ? null : sumValues(profile, counted),
      sampleIntervalMs: period > 0 && periodUnit in TIME_UNITS ? (period * TIME_UNITS[periodUnit]!) / 1000 : null,
      note: `a pprof ${cut(types[time]!.type)} profile (${described}): pprof keeps each stack's total, not when it ran, so there is no timeline`,
      warnings: [...warnings, ...badStringWarning()],
    };
  }
  throw new UserError(`${sourceName} is a pprof profile of ${described}: V8 Lens reads CPU or wall time (…/nanoseconds) and heap (…_space/bytes) profiles`);
}

/** Text from the file in a message: a sample type of 100 KB is shown by its start. */
function cut(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function valueOf(profile: DecodedPprof, sample: number, index: number): number {
  const at = profile.valStart[sample]! + index;
  return at < profile.valStart[sample + 1]! ? profile.values[at]! : 0;
}

function sumValues(profile: DecodedPprof, index: number): number {
  let sum = 0;
  for (let i = 0; i < profile.sampleCount; i++) sum += valueOf(profile, i, index);
  return sum;
}

/** The sample type to read: the default one when it fits, else the last that fits (pprof's own default is the last). */
function pickIndex(types: readonly { type: string; unit: string }[], fits: (t: { type: string; unit: string }) => boolean, defaultType: string): number {
  const byDefault = types.findIndex((t) => t.type === defaultType && fits(t));
  if (byDefault !== -1) return byDefault;
  for (let i = types.length - 1; i >= 0; i--) if (fits(types[i]!)) return i;
  return -1;
}

interface Frame {
  name: string;
  url: string;
  line: number;
  column: number;
}

/** Each sample's stack, root first, with inlined frames expanded (a Location's last line is the caller). */
function stacksOf(profile: DecodedPprof, str: (i: number) => string): { frames: Frame[]; stackOf: (sample: number) => number[] } {
  const functions = new Map(profile.functions.map((f) => [f.id, f]));
  const frames: Frame[] = [];
  const frameIndex = new Map<string, number>();
  const framesOfLocation = new Map<number, number[]>();
  const intern = (frame: Frame) => {
    const key = `${frame.name}\u0000${frame.url}\u0000${frame.line}\u0000${frame.column}`;
    let i = frameIndex.get(key);
    if (i === undefined) {
      i = frames.push(frame) - 1;
      frameIndex.set(key, i);
    }
    return i;
  };
  const locationFrames = (location: PprofLocationEntry): number[] => {
    // Leaf-most first, as in the file.
    const out = location.lines.map((l) => {
      const fn = functions.get(l.functionId);
      const line = l.line > 0 ? l.line : (fn?.startLine ?? 0);
      return intern({ name: v8LensFunctionName(fn ? str(fn.name) || str(fn.systemName) : ''), url: fn ? str(fn.filename) : '', line, column: l.column });
    });
    if (out.length === 0) out.push(intern({ name: `0x${location.address.toString(16)}`, url: '', line: 0, column: 0 }));
    return out;
  };
  for (const location of profile.locations) framesOfLocation.set(location.id, locationFrames(location));
  const unknown = [intern({ name: '(unknown location)', url: '', line: 0, column: 0 })];
  const stackOf = (sample: number) => {
    const leafFirst: number[] = [];
    for (let k = profile.locStart[sample]!; k < profile.locStart[sample + 1]!; k++) {
      for (const f of framesOfLocation.get(profile.locationIds[k]!) ?? unknown) leafFirst.push(f);
    }
    return leafFirst.reverse();
  };
  return { frames, stackOf };
}

/**
 * A call tree built from root-first stacks; nodes in depth-first pre-order (subtrees contiguous).
 * Children are found through one Map keyed by (parent, frame), not a Map per node, and the count
 * of nodes is bounded: a crafted file of distinct deep stacks is refused, not held.
 */
class StackTree {
  readonly frame: number[] = [-1];
  readonly parent: number[] = [-1];
  readonly weight: number[] = [0];
  private readonly child = new Map<number, number>();

  constructor(
    private readonly frameCount: number,
    private readonly sourceName: string,
  ) {}

  add(stack: readonly number[], value: number): void {
    let node = 0;
    for (const frame of stack) {
      const key = node * (this.frameCount + 1) + frame;
      let next = this.child.get(key);
      if (next === undefined) {
        next = this.frame.push(frame) - 1;
        if (next >= PPROF_TREE_NODE_LIMIT) throw new UserError(`${this.sourceName} is refused: its stacks make a call tree of more than ${PPROF_TREE_NODE_LIMIT.toLocaleString('en-US')} nodes, past what V8 Lens reads from a profile`);
        this.parent.push(node);
        this.weight.push(0);
        this.child.set(key, next);
      }
      node = next;
    }
    this.weight[node]! += value;
  }

  /** Pre-order of the node ids (children in the order they were first seen), and each one's parent in that order. */
  preOrder(): { order: number[]; parentPos: Int32Array } {
    const n = this.frame.length;
    // Children lists, compressed: node ids grow in insertion order, so each list keeps it.
    const firstChild = new Int32Array(n + 1);
    for (let i = 1; i < n; i++) firstChild[this.parent[i]! + 1]!++;
    for (let i = 0; i < n; i++) firstChild[i + 1]! += firstChild[i]!;
    const fill = firstChild.slice(0, n);
    const kids = new Int32Array(Math.max(0, n - 1));
    for (let i = 1; i < n; i++) kids[fill[this.parent[i]!]!++] = i;
    const order: number[] = [];
    const posOf = new Int32Array(n).fill(-1);
    const parentPos = new Int32Array(n).fill(-1);
    const pending: number[] = [0];
    while (pending.length > 0) {
      const node = pending.pop()!;
      posOf[node] = order.length;
      parentPos[order.length] = node === 0 ? -1 : posOf[this.parent[node]!]!;
      order.push(node);
      for (let k = firstChild[node + 1]! - 1; k >= firstChild[node]!; k--) pending.push(kids[k]!);
    }
    return { order, parentPos };
  }
}

function treeOf(profile: DecodedPprof, index: number, scale: number, sourceName: string, str: (i: number) => string): { frames: Frame[]; tree: StackTree } {
  const { frames, stackOf } = stacksOf(profile, str);
  const tree = new StackTree(frames.length, sourceName);
  for (let i = 0; i < profile.sampleCount; i++) {
    const value = valueOf(profile, i, index) * scale;
    if (value > 0) tree.add(stackOf(i), value);
  }
  return { frames, tree };
}

function cpuFromPprof(profile: DecodedPprof, index: number, usPerUnit: number, sourceName: string, str: (i: number) => string): CpuProfile {
  const { frames, tree } = treeOf(profile, index, usPerUnit, sourceName, str);
  const { order, parentPos } = tree.preOrder();
  const callFrames: CpuCallFrame[] = frames.map((f) => ({ functionName: f.name, url: f.url, scriptId: '0', line: f.line, column: f.column }));
  const rootFrame: CpuCallFrame = { functionName: '(root)', url: '', scriptId: '0', line: 0, column: 0 };
  const nodes: CpuProfileNode[] = order.map((node, i) => ({ id: i + 1, callFrame: node === 0 ? rootFrame : callFrames[tree.frame[node]!]!, positionTicks: [] }));
  const nodeFrames = new Int32Array(order.map((node) => (node === 0 ? callFrames.length : tree.frame[node]!)));
  // One sample per stack, lasting its total: sample k starts where k − 1 ends.
  const samples: number[] = [];
  const timeDeltasUs: number[] = [];
  let previous = 0;
  order.forEach((node, i) => {
    const weight = tree.weight[node]!;
    if (weight <= 0) return;
    samples.push(i);
    timeDeltasUs.push(previous);
    previous = weight;
  });
  const endTimeUs = timeDeltasUs.reduce((a, b) => a + b, 0) + previous;
  if (samples.length === 0) throw new UserError(`${sourceName}: the pprof profile has no samples with time in them`);
  return {
    sourceName,
    format: 'modern',
    nodes,
    parents: parentPos.slice(0, order.length),
    frames: [...callFrames, rootFrame],
    nodeFrames,
    samples,
    timeDeltasUs,
    startTimeUs: 0,
    endTimeUs,
    warnings: [],
  };
}

function heapFromPprof(profile: DecodedPprof, index: number, str: (i: number) => string, sourceName: string): HeapProfile {
  const { frames, tree } = treeOf(profile, index, 1, sourceName, str);
  const { order, parentPos } = tree.preOrder();
  const nodes: HeapNode[] = order.map((node, i) => {
    const f = node === 0 ? { name: '(root)', url: '', line: 0, column: 0 } : frames[tree.frame[node]!]!;
    return { name: f.name, url: f.url, scriptId: '', line: f.line, column: f.column, selfBytes: tree.weight[node]!, sampleSizes: [], parent: parentPos[i]!, children: [] };
  });
  nodes.forEach((n, i) => {
    if (n.parent >= 0) nodes[n.parent]!.children.push(i);
  });
  return { nodes, totalBytes: nodes.reduce((sum, n) => sum + n.selfBytes, 0), sampleCount: profile.sampleCount, warnings: [] };
}
