import { fileURLToPath } from 'node:url';
import type { CpuProfile } from './cpuProfileFormat';
import type { ScriptFrames } from '../heap/resolvePositions';
import { functionTotals, nodeTotals } from './functionTotals';
import { groupFunctions, type CpuFunctionTime } from './groupFunctions';
import { lineSelfTimes, type CpuLineTime } from './lineSelfTimes';
import { inlinedLinePlacer, type InlinedLineCounts, type OutlineOf } from './inlinedLines';
import { GapCounter } from './medianInterval';
import { nodeSelfTimes } from './sampleWeights';
import { foldV8LensFrames, type IsV8LensScript } from './v8LensFrames';

export type { CpuFunctionTime } from './groupFunctions';
export type { CpuLineTime } from './lineSelfTimes';

/** Time-weighted view of a profile. All times in µs, unrounded. */
export interface CpuModel {
  /** With V8 Lens's own frames folded into one `(V8 Lens)` node (see v8LensFrames.ts). */
  profile: CpuProfile;
  /** Time of the first and last sample (per-sample times: `sampleTimes()` in sampleWeights.ts). */
  firstSampleUs: number;
  lastSampleUs: number;
  /** What the last sample is credited: endTime − its time, or 0 (speedscope's choice). */
  lastSampleWeightUs: number;
  /** Per node (indices of `profile.nodes`). */
  nodeSelfUs: Float64Array;
  nodeTotalUs: Float64Array;
  nodeFunction: Int32Array;
  /** Every distinct function, in first-seen order (the root's is `functions[nodeFunction[0]]`). */
  functions: CpuFunctionTime[];
  /** Every source line with position ticks and self time, in first-seen order. */
  lines: CpuLineTime[];
  /** How the lines of inlined code were placed (see inlinedLines.ts); null when the sources were not consulted. */
  inlinedLines: InlinedLineCounts | null;
  /** Wall time of the profile: endTime − startTime (legacy: first sample to the end of the last). */
  durationUs: number;
  /** Time the samples cover, from the first sample to the end of the last: Σ self of all nodes. */
  coveredUs: number;
  /**
   * From the profile's start to its first sample (`timeDeltas[0]`; the whole profile when it has no
   * samples): the sampler had not ticked yet, so no function is known for it. Not in any node's
   * time: durationUs = this + coveredUs (unless a sample is dated before the start).
   */
  beforeFirstSampleUs: number;
  /** The `(V8 Lens)` node (V8 Lens's own agent, left out of every figure); -1 when it had none. */
  v8LensNode: number;
  /** Its time and samples (0 when none). */
  v8LensUs: number;
  v8LensSamples: number;
  /** Median positive gap between samples. */
  sampleIntervalUs: number;
}

export interface CpuModelOptions {
  /** V8 Lens's own scripts (the preload the run launched with): folded into `(V8 Lens)`. */
  isV8LensScript?: IsV8LensScript | null;
  /** The sources' outlines: with them, line ticks of inlined code go to their own script (inlinedLines.ts). */
  outlineOf?: OutlineOf | null;
}

export function buildCpuModel(raw: CpuProfile, options: CpuModelOptions = {}): CpuModel {
  const { profile, v8LensNode } = foldV8LensFrames(raw, options.isV8LensScript);
  const gaps = new GapCounter();
  const { nodeSelfUs, firstSampleUs, lastSampleUs, lastSampleWeightUs } = nodeSelfTimes(profile, gaps);
  const nodeTotalUs = nodeTotals(profile.parents, nodeSelfUs);
  const groups = groupFunctions(profile);
  const { functions, nodeFunction } = groups;

  for (let i = 0; i < nodeFunction.length; i++) functions[nodeFunction[i]!]!.selfUs += nodeSelfUs[i]!;
  const totalUs = functionTotals(profile.parents, nodeTotalUs, nodeFunction, functions.length);
  for (let f = 0; f < functions.length; f++) functions[f]!.totalUs = totalUs[f]!;

  const placed = lineSelfTimes(profile.nodes, nodeSelfUs, groups, options.outlineOf ? inlinedLinePlacer(profile, groups, options.outlineOf) : null);
  const sampled = profile.samples.length > 0;
  let v8LensSamples = 0;
  if (v8LensNode >= 0) for (const leaf of profile.samples) if (leaf === v8LensNode) v8LensSamples++;
  return {
    profile,
    firstSampleUs,
    lastSampleUs,
    lastSampleWeightUs,
    nodeSelfUs,
    nodeTotalUs,
    nodeFunction,
    functions,
    lines: placed.lines,
    inlinedLines: placed.inlined,
    durationUs: Math.max(0, Math.max(profile.endTimeUs, lastSampleUs) - profile.startTimeUs),
    coveredUs: sampled ? lastSampleUs + lastSampleWeightUs - firstSampleUs : 0,
    // Without samples, the whole profile went unseen.
    beforeFirstSampleUs: sampled ? Math.max(0, firstSampleUs - profile.startTimeUs) : Math.max(0, profile.endTimeUs - profile.startTimeUs),
    v8LensNode,
    v8LensUs: v8LensNode >= 0 ? nodeSelfUs[v8LensNode]! : 0,
    v8LensSamples,
    sampleIntervalUs: gaps.median(profile),
  };
}

/**
 * Each script's url and each named function's start, by V8's script id, from a profile's call
 * frames: what a heap profile of the same isolate can be completed with (heap/resolvePositions.ts).
 * A function name seen at two starts in one script is left out of the names; the call tree (the
 * profile's own arrays, not copied) places those by their callers.
 */
export function scriptFramesOf(profile: CpuProfile): ScriptFrames {
  const urls = new Map<string, string>();
  const starts = new Map<string, { line: number; column: number }>();
  const ambiguous = new Set<string>();
  for (const node of profile.nodes) {
    const f = node.callFrame;
    if (f.scriptId === '' || f.scriptId === '0' || f.url === '') continue;
    urls.set(f.scriptId, f.url);
    if (f.line === 0) continue;
    const key = `${f.scriptId}\u0000${f.functionName}`;
    const seen = starts.get(key);
    if (seen && (seen.line !== f.line || seen.column !== f.column)) ambiguous.add(key);
    else starts.set(key, { line: f.line, column: f.column });
  }
  for (const key of ambiguous) starts.delete(key);
  return { urls, starts, calls: { parents: profile.parents, nodeFrames: profile.nodeFrames, frames: profile.frames } };
}

/**
 * A function by place: `${file}\0${line}\0${column}`, 1-based, as summaries name them. CPU profiles
 * name a CommonJS script by its file:// URL where heap profiles give its path: both become the path.
 */
export function functionPlaceKey(url: string, line: number, column: number): string {
  let file = url;
  if (url.startsWith('file://')) {
    try {
      file = fileURLToPath(url);
    } catch {
      // Not a local file URL: kept as it is.
    }
  }
  return `${file}\u0000${line}\u0000${column}`;
}

/** How deep below a function its callees are named (inlining nests: a handler, its helper, the helper's). */
const CALLEE_DEPTH = 3;

/**
 * The app's functions each script function calls in the CPU profile, directly or through up to
 * CALLEE_DEPTH levels of the app's own code (by place key to callee names, nearest first; Node's own
 * `node:` modules end a path). The CPU profiler sees through inlining (it maps each sample to its
 * inlined frame); the heap profiler may not, so this is what a heap profile's function can hide.
 */
export function scriptCalleesOf(profile: CpuProfile): Map<string, Set<string>> {
  const callees = new Map<string, Set<string>>();
  const isApp = (i: number) => {
    const url = profile.nodes[i]!.callFrame.url;
    return url !== '' && !url.startsWith('node:');
  };
  // Once per distinct frame: a URL-to-path conversion per node and depth costs on big profiles.
  const frameKeys: (string | undefined)[] = new Array(profile.frames.length);
  const keyOf = (i: number) => {
    const frame = profile.nodeFrames[i]!;
    let key = frameKeys[frame];
    if (key === undefined) {
      const f = profile.frames[frame]!;
      key = frameKeys[frame] = functionPlaceKey(f.url, f.line, f.column);
    }
    return key;
  };
  // By depth, so that nearer callees come first in each set.
  for (let depth = 1; depth <= CALLEE_DEPTH; depth++) {
    for (let i = 1; i < profile.nodes.length; i++) {
      if (!isApp(i) || profile.nodes[i]!.callFrame.functionName === '') continue;
      let caller = profile.parents[i]!;
      for (let up = 1; up < depth && caller >= 0 && isApp(caller); up++) caller = profile.parents[caller]!;
      if (caller < 0 || !isApp(caller)) continue;
      const key = keyOf(caller);
      if (key === keyOf(i)) continue;
      let names = callees.get(key);
      if (!names) callees.set(key, (names = new Set()));
      names.add(profile.nodes[i]!.callFrame.functionName);
    }
  }
  return callees;
}
