/**
 * A CPU model as the report page's TimeProfile (shared/model/timeProfile.ts): a string table, one
 * row per function and per node with time, and the samples in time order merged into spans. Frames
 * deeper than MAX_FLAME_DEPTH fold into their ancestor at that depth, as in the flame tree.
 */
import { frameCategory } from '../../shared/frameCategory';
import { TIME_PROFILE_CATEGORIES, type TimeProfile } from '../../shared/model/timeProfile';
import { MAX_FLAME_DEPTH } from './flameTree';
import type { CpuModel } from '../cpu/cpuModel';
import { sampleTimes } from '../cpu/sampleWeights';

export function buildTimeProfile(model: CpuModel, clock: Pick<TimeProfile, 'clockMs' | 'clockNote'> = { clockMs: null, clockNote: 'not lined up with the GC trace' }): TimeProfile {
  const { profile, nodeTotalUs, nodeFunction, functions } = model;
  const strings: string[] = [];
  const stringIds = new Map<string, number>();
  const str = (s: string) => {
    let id = stringIds.get(s);
    if (id === undefined) stringIds.set(s, (id = strings.push(s) - 1));
    return id;
  };
  const fnIds = new Int32Array(functions.length).fill(-1);
  const nodeFn: number[] = [];
  const nodeParent: number[] = [];
  const out: TimeProfile = { strings, fnName: [], fnUrl: [], fnLine: [], fnColumn: [], fnCategory: [], nodeFn, nodeParent, spanNode: [], spanDeltaUs: [], durationUs: 0, ...clock };
  const fnId = (f: number) => {
    if (fnIds[f]! < 0) {
      const fn = functions[f]!;
      fnIds[f] = out.fnName.length;
      out.fnName.push(str(fn.name));
      out.fnUrl.push(str(fn.url));
      out.fnLine.push(fn.line);
      out.fnColumn.push(fn.column);
      out.fnCategory.push(TIME_PROFILE_CATEGORIES.indexOf(frameCategory(fn.name === '(anonymous)' ? '' : fn.name, fn.url, fn.line)));
    }
    return fnIds[f]!;
  };

  // Nodes with time, renumbered; a node deeper than the limit shows as its ancestor at the limit.
  const { parents } = profile;
  const newId = new Int32Array(profile.nodes.length).fill(-1);
  const depth = new Int32Array(profile.nodes.length);
  for (let i = 0; i < profile.nodes.length; i++) {
    const parent = parents[i]!;
    if (i !== 0 && (nodeTotalUs[i]! <= 0 || parent < 0 || newId[parent]! < 0)) continue;
    depth[i] = parent >= 0 ? depth[parent]! + 1 : 0;
    if (depth[i]! > MAX_FLAME_DEPTH) {
      newId[i] = newId[parent]!;
      depth[i] = MAX_FLAME_DEPTH;
      continue;
    }
    newId[i] = nodeFn.length;
    nodeFn.push(fnId(nodeFunction[i]!));
    nodeParent.push(parent >= 0 ? newId[parent]! : -1);
  }

  const times = sampleTimes(profile);
  const { samples } = profile;
  if (samples.length > 0) {
    const first = times[0]!;
    // At most one span per sample: filled in place, not grown (millions of samples).
    const starts = new Float64Array(samples.length);
    const nodes = new Int32Array(samples.length);
    let count = 0;
    for (let i = 0; i < samples.length; i++) {
      const node = newId[samples[i]!] ?? -1;
      if (node < 0) continue;
      const start = Math.round(times[i]! - first);
      // A sample that lasted no time gives its place to the next one.
      while (count > 0 && starts[count - 1] === start) count--;
      if (count > 0 && nodes[count - 1] === node) continue;
      starts[count] = start;
      nodes[count] = node;
      count++;
    }
    // Typed, as they are: packTimeProfile encodes them for the page without a copy into plain arrays
    // (two arrays of 1.4 million numbers for a 47 MB profile, a tenth of `report --html`).
    const deltas = new Float64Array(count);
    for (let i = count - 1; i > 0; i--) deltas[i] = starts[i]! - starts[i - 1]!;
    if (count > 0) deltas[0] = starts[0]!;
    out.spanNode = nodes.subarray(0, count);
    out.spanDeltaUs = deltas;
    out.durationUs = Math.round(model.coveredUs);
  }
  return out;
}
