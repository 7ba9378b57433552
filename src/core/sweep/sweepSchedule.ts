/**
 * The order a sweep runs in (gc.md section 9, step 3): settings interleaved, one fresh process
 * per run, and the order rotated by one every round, so slow drift on the machine (thermal,
 * background jobs) spreads over all settings instead of always hitting the same one.
 */

/** One run of the schedule: the flag's value, the round (0-based), the position in the whole sweep. */
export interface ScheduledRun {
  value: number;
  round: number;
  index: number;
  /** Absent: a measured run. */
  purpose?: 'measure' | 'profile' | 'survivors';
}

/**
 * Settings interleaved, order rotated by one every round: round r runs the values rotated left by
 * r (r = 0-based). Returns the runs in execution order.
 * E.g. [16, 32, 64] × 2 → 16 32 64 | 32 64 16. `index` is the position in the whole sweep.
 */
export function sweepSchedule(values: readonly number[], rounds: number): ScheduledRun[] {
  const out: ScheduledRun[] = [];
  const n = values.length;
  const roundCount = Number.isFinite(rounds) ? Math.max(0, Math.floor(rounds)) : 0;
  if (n === 0) return out;
  for (let round = 0; round < roundCount; round++) {
    for (let i = 0; i < n; i++) {
      out.push({ value: values[(i + round) % n]!, round, index: out.length });
    }
  }
  return out;
}

/**
 * The measured schedule, then (with `profile`) one profiling run per value in the values' order,
 * numbered on from the last round: their profilers would change what the measured runs measure.
 */
export function labSchedule(values: readonly number[], rounds: number, profile: boolean, survivors = false): ScheduledRun[] {
  const out = sweepSchedule(values, rounds);
  const round = out.length > 0 ? out[out.length - 1]!.round + 1 : 0;
  if (profile) for (const value of values) out.push({ value, round, index: out.length, purpose: 'profile' });
  // Then, asked for, one survivors run per value (one sampler mode per process: a run of its own).
  if (survivors) for (const value of values) out.push({ value, round, index: out.length, purpose: 'survivors' });
  return out;
}
