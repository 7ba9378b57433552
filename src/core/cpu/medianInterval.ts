import { median } from '../util/stats';
import type { CpuProfile } from './cpuProfileFormat';
import { nodeSelfTimes, sampleTimes } from './sampleWeights';

/** Gaps up to this many µs are counted in a table; longer ones (rare stalls) are kept in a list. */
const TABLE_SIZE = 1 << 16;

/**
 * Collects the positive gaps between consecutive (clamped) sample times, for their median: the
 * effective sampling interval. `median()` sorts a copy, about 0.7 s for the millions of gaps of a
 * long profile; gaps are whole microseconds in practice, so they are counted instead. A fractional
 * gap makes `median()` itself take over, which is also the definition this must agree with.
 * Fed by the sample-weighting loop (`nodeSelfTimes`), so the samples are walked only once.
 */
export class GapCounter {
  private readonly counts = new Uint32Array(TABLE_SIZE);
  private readonly long: number[] = [];
  private count = 0;
  private fractional = false;

  add(gap: number): void {
    if (gap < TABLE_SIZE && (gap | 0) === gap) this.counts[gap]!++;
    else if (Number.isInteger(gap)) this.long.push(gap);
    else this.fractional = true;
    this.count++;
  }

  median(profile: CpuProfile): number {
    if (this.fractional) return median(positiveGaps(profile));
    const n = this.count;
    if (n === 0) return 0;
    const long = this.long.sort((a, b) => a - b);
    const counts = this.counts;
    const at = (rank: number): number => {
      let seen = 0;
      for (let v = 0; v < TABLE_SIZE; v++) {
        seen += counts[v]!;
        if (seen > rank) return v;
      }
      return long[rank - seen]!;
    };
    const mid = n >> 1;
    return n % 2 === 1 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
  }
}

/** The median gap of a profile on its own (the model gets it from its single pass instead). */
export function medianInterval(profile: CpuProfile): number {
  const gaps = new GapCounter();
  nodeSelfTimes(profile, gaps);
  return gaps.median(profile);
}

function positiveGaps(profile: CpuProfile): number[] {
  const gaps: number[] = [];
  const times = sampleTimes(profile);
  for (let i = 1; i < times.length; i++) {
    const gap = times[i]! - times[i - 1]!;
    if (gap > 0) gaps.push(gap);
  }
  return gaps;
}
