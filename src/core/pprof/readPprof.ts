/**
 * A pprof file (profile.proto, gzipped or not) from a fleet's profiler or Node's own agents
 * (`@datadog/pprof`, `@pyroscope/nodejs`) into the profiles V8 Lens reads: a time profile (cpu or
 * wall time) becomes a CpuProfile, a heap profile (space in bytes) a HeapProfile. pprof keeps each
 * stack's totals, not when its samples were taken: the CpuProfile has one sample per stack lasting
 * its total, so figures match and there is no time order (no timeline).
 */
import { gunzipSync } from 'node:zlib';
import { Profile, type Location } from 'pprof-format';
import type { CpuCallFrame, CpuProfile, CpuProfileNode } from '../cpu/cpuProfileFormat';
import type { HeapNode, HeapProfile } from '../heap/heapProfileFormat';
import { UserError } from '../util/errors';
import { v8LensFunctionName } from './pprofNames';

export type PprofContent =
  | {
      kind: 'cpu';
      profile: CpuProfile;
      /** V8's samples behind it (a `samples`/`sample` count type), and their interval (the period); null when the file has none. */
      sampleCount: number | null;
      sampleIntervalMs: number | null;
      note: string;
    }
  | { kind: 'heap'; profile: HeapProfile; samplingIntervalBytes: number | null; inUse: boolean; note: string };

const GZIP_MAGIC = [0x1f, 0x8b];

export function looksLikeGzip(head: Uint8Array): boolean {
  return head.length >= 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
}

export function decodePprof(bytes: Uint8Array, sourceName: string): Profile {
  let raw: Uint8Array = bytes;
  if (looksLikeGzip(bytes)) {
    try {
      raw = gunzipSync(bytes, { maxOutputLength: 1 << 30 });
    } catch (err) {
      throw new UserError(`${sourceName}: not a readable gzip file (${(err as Error).message}); is it cut short?`);
    }
  }
  let profile: Profile;
  try {
    profile = Profile.decode(raw);
  } catch (err) {
    throw new UserError(`${sourceName} is not a pprof profile (profile.proto): ${(err as Error).message}`);
  }
  if (profile.sampleType.length === 0) throw new UserError(`${sourceName} is not a pprof profile: it has no sample types`);
  return profile;
}

const TIME_UNITS: Record<string, number> = { nanoseconds: 1e-3, microseconds: 1, milliseconds: 1e3, seconds: 1e6 };

/** What the profile holds, converted; a one-line UserError for a kind V8 Lens does not read. */
export function readPprof(bytes: Uint8Array, sourceName: string): PprofContent {
  const profile = decodePprof(bytes, sourceName);
  const str = (i: number | bigint) => profile.stringTable.strings[Number(i)] ?? '';
  const types = profile.sampleType.map((t) => ({ type: str(t.type), unit: str(t.unit) }));
  const described = types.map((t) => `${t.type}/${t.unit}`).join(', ');
  const defaultType = str(profile.defaultSampleType);

  const space = pickIndex(types, (t) => t.unit === 'bytes' && /(^|_)space$/.test(t.type), defaultType);
  if (space !== -1) {
    const inUse = types[space]!.type.startsWith('inuse');
    const periodType = profile.periodType ? { type: str(profile.periodType.type), unit: str(profile.periodType.unit) } : null;
    const interval = periodType?.unit === 'bytes' && Number(profile.period) > 0 ? Number(profile.period) : null;
    return {
      kind: 'heap',
      profile: heapFromPprof(profile, space, str),
      samplingIntervalBytes: interval,
      inUse,
      note: inUse
        ? `a pprof heap profile (${described}): ${types[space]!.type} counts the bytes still in use when it was taken, not all that was allocated`
        : `a pprof heap profile (${described})`,
    };
  }
  const time = pickIndex(types, (t) => t.unit in TIME_UNITS, defaultType);
  if (time !== -1) {
    const scale = TIME_UNITS[types[time]!.unit]!;
    const counted = types.findIndex((t) => t.unit === 'count' && /^samples?$/.test(t.type));
    const periodUnit = profile.periodType ? str(profile.periodType.unit) : '';
    const period = Number(profile.period);
    return {
      kind: 'cpu',
      profile: cpuFromPprof(profile, time, scale, sourceName, str),
      sampleCount: counted === -1 ? null : profile.sample.reduce((sum, s) => sum + Number(s.value[counted] ?? 0), 0),
      sampleIntervalMs: period > 0 && periodUnit in TIME_UNITS ? (period * TIME_UNITS[periodUnit]!) / 1000 : null,
      note: `a pprof ${types[time]!.type} profile (${described}): pprof keeps each stack's total, not when it ran, so there is no timeline`,
    };
  }
  throw new UserError(`${sourceName} is a pprof profile of ${described}: V8 Lens reads CPU or wall time (…/nanoseconds) and heap (…_space/bytes) profiles`);
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
function stacksOf(profile: Profile, str: (i: number | bigint) => string): { frames: Frame[]; stackOf: (locationIds: readonly (number | bigint)[]) => number[] } {
  const functions = new Map(profile.function.map((f) => [Number(f.id), f]));
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
  const locationFrames = (location: Location): number[] => {
    // Leaf-most first, as in the file.
    const out = location.line.map((l) => {
      const fn = functions.get(Number(l.functionId));
      const line = Number(l.line) > 0 ? Number(l.line) : Number(fn?.startLine ?? 0);
      return intern({ name: v8LensFunctionName(fn ? str(fn.name) || str(fn.systemName) : ''), url: fn ? str(fn.filename) : '', line: Math.max(0, line), column: Math.max(0, Number(l.column)) });
    });
    if (out.length === 0) out.push(intern({ name: `0x${Number(location.address).toString(16)}`, url: '', line: 0, column: 0 }));
    return out;
  };
  for (const location of profile.location) framesOfLocation.set(Number(location.id), locationFrames(location));
  const stackOf = (locationIds: readonly (number | bigint)[]) => {
    const leafFirst: number[] = [];
    for (const id of locationIds) leafFirst.push(...(framesOfLocation.get(Number(id)) ?? [intern({ name: '(unknown location)', url: '', line: 0, column: 0 })]));
    return leafFirst.reverse();
  };
  return { frames, stackOf };
}

/** A call tree built from root-first stacks; nodes in depth-first pre-order (subtrees contiguous). */
class StackTree {
  readonly frame: number[] = [-1];
  readonly children: Map<number, number>[] = [new Map()];
  readonly weight: number[] = [0];

  add(stack: readonly number[], value: number): number {
    let node = 0;
    for (const frame of stack) {
      let child = this.children[node]!.get(frame);
      if (child === undefined) {
        child = this.frame.push(frame) - 1;
        this.children.push(new Map());
        this.weight.push(0);
        this.children[node]!.set(frame, child);
      }
      node = child;
    }
    this.weight[node]! += value;
    return node;
  }

  /** Pre-order of the node ids, and each one's parent in that order. */
  preOrder(): { order: number[]; parentPos: Int32Array; posOf: Int32Array } {
    const order: number[] = [];
    const posOf = new Int32Array(this.frame.length).fill(-1);
    const parentPos = new Int32Array(this.frame.length).fill(-1);
    const pending: { node: number; parent: number }[] = [{ node: 0, parent: -1 }];
    while (pending.length > 0) {
      const { node, parent } = pending.pop()!;
      posOf[node] = order.length;
      parentPos[order.length] = parent;
      order.push(node);
      const kids = [...this.children[node]!.values()];
      for (let i = kids.length - 1; i >= 0; i--) pending.push({ node: kids[i]!, parent: posOf[node]! });
    }
    return { order, parentPos, posOf };
  }
}

function cpuFromPprof(profile: Profile, index: number, usPerUnit: number, sourceName: string, str: (i: number | bigint) => string): CpuProfile {
  const { frames, stackOf } = stacksOf(profile, str);
  const tree = new StackTree();
  for (const sample of profile.sample) {
    const value = Number(sample.value[index] ?? 0) * usPerUnit;
    if (value > 0) tree.add(stackOf(sample.locationId), value);
  }
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

function heapFromPprof(profile: Profile, index: number, str: (i: number | bigint) => string): HeapProfile {
  const { frames, stackOf } = stacksOf(profile, str);
  const tree = new StackTree();
  for (const sample of profile.sample) {
    const value = Number(sample.value[index] ?? 0);
    if (value > 0) tree.add(stackOf(sample.locationId), value);
  }
  const { order, parentPos } = tree.preOrder();
  const nodes: HeapNode[] = order.map((node, i) => {
    const f = node === 0 ? { name: '(root)', url: '', line: 0, column: 0 } : frames[tree.frame[node]!]!;
    return { name: f.name, url: f.url, scriptId: '', line: f.line, column: f.column, selfBytes: tree.weight[node]!, sampleSizes: [], parent: parentPos[i]!, children: [] };
  });
  nodes.forEach((n, i) => {
    if (n.parent >= 0) nodes[n.parent]!.children.push(i);
  });
  return { nodes, totalBytes: nodes.reduce((sum, n) => sum + n.selfBytes, 0), sampleCount: profile.sample.length, warnings: [] };
}
