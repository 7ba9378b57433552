/**
 * The order a sweep runs in (gc.md section 9, step 3): settings interleaved, one fresh process
 * per run, and the order rotated by one every round, so slow drift on the machine (thermal,
 * background jobs) spreads over all settings instead of always hitting the same one.
 */

/**
 * Settings interleaved, order rotated by one every round: round r runs sizes rotated left by r
 * (r = 0-based). Returns the runs in execution order.
 * E.g. [16, 32, 64] × 2 → 16 32 64 | 32 64 16. `index` is the position in the whole sweep.
 */
export function sweepSchedule(
  sizesMB: readonly number[],
  rounds: number,
): { semiSpaceMB: number; round: number; index: number }[] {
  const out: { semiSpaceMB: number; round: number; index: number }[] = [];
  const n = sizesMB.length;
  const roundCount = Number.isFinite(rounds) ? Math.max(0, Math.floor(rounds)) : 0;
  if (n === 0) return out;
  for (let round = 0; round < roundCount; round++) {
    for (let i = 0; i < n; i++) {
      out.push({ semiSpaceMB: sizesMB[(i + round) % n]!, round, index: out.length });
    }
  }
  return out;
}
