import type { CpuProfile } from './cpuProfileFormat';
import { functionTotals, nodeTotals } from './functionTotals';
import { groupFunctions, type CpuFunctionTime } from './groupFunctions';
import { lineSelfTimes, type CpuLineTime } from './lineSelfTimes';
import { GapCounter } from './medianInterval';
import { nodeSelfTimes } from './sampleWeights';

export type { CpuFunctionTime } from './groupFunctions';
export type { CpuLineTime } from './lineSelfTimes';

/** Time-weighted view of a profile. All times in µs, unrounded. */
export interface CpuModel {
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
  /** Wall time of the profile: endTime − startTime (legacy: first sample to the end of the last). */
  durationUs: number;
  /** Time the samples cover, from the first sample to the end of the last: Σ self of all nodes. */
  coveredUs: number;
  /** Median positive gap between samples. */
  sampleIntervalUs: number;
}

export function buildCpuModel(profile: CpuProfile): CpuModel {
  const gaps = new GapCounter();
  const { nodeSelfUs, firstSampleUs, lastSampleUs, lastSampleWeightUs } = nodeSelfTimes(profile, gaps);
  const nodeTotalUs = nodeTotals(profile.parents, nodeSelfUs);
  const groups = groupFunctions(profile);
  const { functions, nodeFunction } = groups;

  for (let i = 0; i < nodeFunction.length; i++) functions[nodeFunction[i]!]!.selfUs += nodeSelfUs[i]!;
  const totalUs = functionTotals(profile.parents, nodeTotalUs, nodeFunction, functions.length);
  for (let f = 0; f < functions.length; f++) functions[f]!.totalUs = totalUs[f]!;

  const sampled = profile.samples.length > 0;
  return {
    profile,
    firstSampleUs,
    lastSampleUs,
    lastSampleWeightUs,
    nodeSelfUs,
    nodeTotalUs,
    nodeFunction,
    functions,
    lines: lineSelfTimes(profile.nodes, nodeSelfUs, groups),
    durationUs: Math.max(0, Math.max(profile.endTimeUs, lastSampleUs) - profile.startTimeUs),
    coveredUs: sampled ? lastSampleUs + lastSampleWeightUs - firstSampleUs : 0,
    sampleIntervalUs: gaps.median(profile),
  };
}
