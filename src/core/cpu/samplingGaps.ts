/**
 * Stretches of a profile with no CPU sample. V8 samples every interval (1 ms by default) whatever
 * the process does, idle included; when the machine has more runnable threads than cores, the
 * sampler and the JS thread wait their turn and samples go missing: 60 s at 200 connections on 2
 * cores had 586 gaps over 10 ms, 20 s of 64 s unsampled, while the report said "every ~1.13 ms";
 * a CPU-bound target sharing a core with six busy loops, 1.5 s of 3 s in gaps of 2–12 ms. The
 * report's times then count only the samples taken, so the gap is said aloud.
 *
 * A gap is a time between samples of more than twice the usual interval (the deltas' lower
 * quartile, which the gaps do not move); what it did not sample is its length past one interval.
 * A gap next to an `(idle)` sample is left out: an idle process that loses samples loses nothing it
 * ran. So is start-up before the first sample (not in `timeDeltas`' gaps).
 */
import type { CpuProfile } from './cpuProfileFormat';

/** Said when the gaps add up to this share of the profile's time… */
export const GAP_SHARE_TO_SAY = 0.05;
/** …and to at least this much (a start-up stall of 40 ms in a 300 ms run is not a saturated machine). */
export const GAP_MS_TO_SAY = 250;

export interface SamplingGaps {
  /** The usual time between samples (the lower quartile of the deltas: gaps do not move it), ms. */
  intervalMs: number;
  /** Times between two samples over twice the interval, not next to an idle sample. */
  count: number;
  /** Their time beyond one interval each: what was not sampled. */
  unsampledMs: number;
  longestMs: number;
  /** From the profile's start to its end. */
  wallMs: number;
}

/** Deltas up to this many µs are counted in a table for the quartile; longer ones are gaps anyway. */
const TABLE_US = 1 << 16;

export function samplingGaps(profile: CpuProfile): SamplingGaps {
  const { samples, timeDeltasUs, nodeFrames, frames } = profile;
  const idleFrame = frames.findIndex((f) => f.functionName === '(idle)');
  const isIdle = (i: number) => idleFrame !== -1 && nodeFrames[samples[i]!] === idleFrame;
  const n = Math.min(samples.length, timeDeltasUs.length);
  const table = new Uint32Array(TABLE_US);
  let positive = 0;
  for (let i = 1; i < n; i++) {
    const d = timeDeltasUs[i]!;
    if (!(d > 0)) continue;
    positive++;
    if (d < TABLE_US) table[Math.floor(d)]!++;
  }
  let intervalUs = 1000;
  for (let v = 0, seen = 0, rank = Math.floor(positive / 4); v < TABLE_US; v++) {
    seen += table[v]!;
    if (seen > rank) {
      intervalUs = Math.max(1, v);
      break;
    }
  }
  let count = 0;
  let unsampledUs = 0;
  let longestUs = 0;
  for (let i = 1; i < n; i++) {
    const d = timeDeltasUs[i]!;
    if (!(d > 2 * intervalUs) || isIdle(i) || isIdle(i - 1)) continue;
    count++;
    unsampledUs += d - intervalUs;
    if (d > longestUs) longestUs = d;
  }
  return { intervalMs: intervalUs / 1000, count, unsampledMs: unsampledUs / 1000, longestMs: longestUs / 1000, wallMs: Math.max(0, profile.endTimeUs - profile.startTimeUs) / 1000 };
}

/**
 * A whole number with thousands separators, as toLocaleString('en-US') writes it, without loading
 * ICU's data for it: that took 15–40 ms of a 250 ms `report --json`.
 */
function grouped(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function duration(ms: number): string {
  if (ms >= 10_000) return `${Math.round(ms / 1000)} s`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms)} ms`;
}

/**
 * "21 s of 64 s had no CPU sample (586 gaps over 10 ms, the longest 595 ms): …"; null when the gaps
 * are too few to matter.
 */
export function samplingGapWarning(gaps: SamplingGaps): string | null {
  if (gaps.wallMs <= 0 || gaps.unsampledMs < GAP_MS_TO_SAY || gaps.unsampledMs < GAP_SHARE_TO_SAY * gaps.wallMs) return null;
  return (
    `${duration(gaps.unsampledMs)} of ${duration(gaps.wallMs)} had no CPU sample (${grouped(gaps.count)} gap${gaps.count === 1 ? '' : 's'} of more than twice the ${gaps.intervalMs.toFixed(2)} ms interval, ` +
    `the longest ${duration(gaps.longestMs)}): the machine was saturated (more runnable threads than cores) or the process was stopped, ` +
    'so the times here count only the samples taken'
  );
}
