import type { CpuProfile } from './cpuProfileFormat';

/*
 * How samples are timed and weighted, from `timeDeltas` (never `hitCount`, which disagrees with the
 * samples). Sample i is taken at startTime + Σ timeDeltas[0..i] and lasts until the next sample; the
 * last one lasts until endTime when that is later (speedscope gives it 0). Time before the first
 * sample is nobody's.
 *
 * A negative delta does not move time backwards: the running sum keeps the raw deltas, so the clock
 * stays true to the file, and a sample that would land before its predecessor is put at the same
 * time instead (weight 0), as speedscope does.
 *
 * Per-sample arrays are not kept: a long profile has millions of samples, and 8 bytes each of
 * typed-array memory costs more in allocation and GC pressure than recomputing the running sum.
 */

/** Where the weighting loop reports each gap between samples (medianInterval.ts's GapCounter). */
export interface GapSink {
  add(gap: number): void;
}

export interface NodeSelfTimes {
  /** Per node: the weights of the samples whose leaf it is. */
  nodeSelfUs: Float64Array;
  /** Time of the first and last sample (µs, absolute); both startTimeUs when there are none. */
  firstSampleUs: number;
  lastSampleUs: number;
  /** What the last sample is credited: endTime − its time, or 0. */
  lastSampleWeightUs: number;
}

/** `gaps`, when given, receives every positive gap between samples (for the sampling interval). */
export function nodeSelfTimes(profile: CpuProfile, gaps?: GapSink): NodeSelfTimes {
  const { samples, timeDeltasUs } = profile;
  const count = samples.length;
  const nodeSelfUs = new Float64Array(profile.nodes.length);
  if (count === 0) {
    return { nodeSelfUs, firstSampleUs: profile.startTimeUs, lastSampleUs: profile.startTimeUs, lastSampleWeightUs: 0 };
  }
  const firstSampleUs = profile.startTimeUs + timeDeltasUs[0]!;
  let raw = firstSampleUs;
  let previous = firstSampleUs;
  for (let i = 1; i < count; i++) {
    raw += timeDeltasUs[i]!;
    if (raw > previous) {
      const gap = raw - previous;
      nodeSelfUs[samples[i - 1]!]! += gap;
      gaps?.add(gap);
      previous = raw;
    }
  }
  const lastSampleWeightUs = lastWeight(profile, previous);
  nodeSelfUs[samples[count - 1]!]! += lastSampleWeightUs;
  return { nodeSelfUs, firstSampleUs, lastSampleUs: previous, lastSampleWeightUs };
}

/** When each sample was taken (µs, absolute, never decreasing): for time-ordered views. */
export function sampleTimes(profile: CpuProfile): Float64Array {
  const { timeDeltasUs } = profile;
  const times = new Float64Array(timeDeltasUs.length);
  let raw = profile.startTimeUs;
  let previous = -Infinity;
  for (let i = 0; i < times.length; i++) {
    raw += timeDeltasUs[i]!;
    if (raw > previous) previous = raw;
    times[i] = previous;
  }
  return times;
}

/** Time credited to each sample, given `sampleTimes(profile)`. */
export function sampleWeights(profile: CpuProfile, times: Float64Array): Float64Array {
  const weights = new Float64Array(times.length);
  for (let i = 0; i + 1 < times.length; i++) weights[i] = times[i + 1]! - times[i]!;
  if (times.length > 0) weights[times.length - 1] = lastWeight(profile, times[times.length - 1]!);
  return weights;
}

function lastWeight(profile: CpuProfile, lastSampleUs: number): number {
  return profile.endTimeUs > lastSampleUs ? profile.endTimeUs - lastSampleUs : 0;
}
