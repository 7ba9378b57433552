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
 *
 * The running sum and the last time live in a Float64Array, not in `let` variables: these loops
 * run once per profile, so V8 optimizes them on-stack (OSR), where a number carried from one
 * iteration to the next is typed as any value and boxed into a new heap number each time (an
 * absolute µs time is past the small-integer range). 3 million samples made 48 MB of garbage per
 * loop, a tenth of what `report --html` of a 47 MB profile allocated (Node 20 to 26 alike).
 */

/** Index in a loop's scratch: the running sum of the deltas, and the last (never decreasing) time. */
const RAW = 0;
const PREVIOUS = 1;

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
  const clock = new Float64Array([firstSampleUs, firstSampleUs]);
  for (let i = 1; i < count; i++) {
    const raw = (clock[RAW] = clock[RAW]! + timeDeltasUs[i]!);
    if (raw > clock[PREVIOUS]!) {
      const gap = raw - clock[PREVIOUS]!;
      nodeSelfUs[samples[i - 1]!]! += gap;
      gaps?.add(gap);
      clock[PREVIOUS] = raw;
    }
  }
  const lastSampleUs = clock[PREVIOUS]!;
  const lastSampleWeightUs = lastWeight(profile, lastSampleUs);
  nodeSelfUs[samples[count - 1]!]! += lastSampleWeightUs;
  return { nodeSelfUs, firstSampleUs, lastSampleUs, lastSampleWeightUs };
}

/** When each sample was taken (µs, absolute, never decreasing): for time-ordered views. */
export function sampleTimes(profile: CpuProfile): Float64Array {
  const { timeDeltasUs } = profile;
  const times = new Float64Array(timeDeltasUs.length);
  const clock = new Float64Array([profile.startTimeUs, -Infinity]);
  for (let i = 0; i < times.length; i++) {
    const raw = (clock[RAW] = clock[RAW]! + timeDeltasUs[i]!);
    if (raw > clock[PREVIOUS]!) clock[PREVIOUS] = raw;
    times[i] = clock[PREVIOUS]!;
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
