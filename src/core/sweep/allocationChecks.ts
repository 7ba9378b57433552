/**
 * The lab's code-side figures: bytes allocated per request must not depend on the semi-space size
 * (a check that the runs did the same work), and the functions that allocate most are the
 * alternative to a bigger young generation: less garbage to collect at any size.
 */
import { fmtBytes } from '../../shared/formatBytes';
import type { SweepSettingResult } from '../../shared/model/sweep';
import { formatSetting } from '../../shared/sweepFlags';
import { median } from '../util/stats';
import { isValidRun } from './sweepStats';

/**
 * How far the settings' medians of bytes per request may differ and still be "the same work". The
 * sampling alone moves one window's figure by about ±2.6% (1/√n at the ~1,500 samples a 2 s window
 * of the example service holds at LAB_ALLOC_SAMPLING_BYTES); the rest is the app (caches warming, a
 * different mix of answers): 15% was the widest spread seen between rounds of one setting on the
 * example services.
 */
export const ALLOC_INVARIANCE_TOLERANCE = 0.15;
/** An allocator is named as the alternative when it makes at least this share of the bytes. */
const NAMED_SHARE = 0.1;

/** A warning when the settings' bytes per request differ beyond the tolerance; null when they agree or are unknown. */
export function allocationInvarianceWarning(results: readonly SweepSettingResult[]): string | null {
  const measured = results.filter((r) => typeof r.median.allocBytesPerRequest === 'number');
  if (measured.length < 2) return null;
  const values = measured.map((r) => r.median.allocBytesPerRequest!);
  const low = Math.min(...values);
  const high = Math.max(...values);
  if (!(low > 0) || high / low - 1 <= ALLOC_INVARIANCE_TOLERANCE) return null;
  const each = measured.map((r) => `${fmtBytes(r.median.allocBytesPerRequest!)} at ${formatSetting(r.flag, r.value)}`).join(', ');
  return (
    `Bytes allocated per request differ by ${Math.round((high / low - 1) * 100)}% across settings (${each}): the flag cannot change what the code allocates, ` +
    'so the runs did not do the same work (a different mix of answers, caches, warm-up); read their GC figures with care.'
  );
}

/** "Or cut allocation: buildOrder makes 74% of the 98.6 KB allocated per request."; null when unknown. */
export function allocationAlternative(results: readonly SweepSettingResult[]): string | null {
  const runs = results.flatMap((r) => r.runs).filter(isValidRun);
  const perRequest = runs.map((r) => r.allocBytesPerRequest).filter((v): v is number => typeof v === 'number');
  if (perRequest.length === 0) return null;
  // Mean share per function over the runs that recorded allocators (a function absent from a run's top counts 0 there).
  const withTop = runs.filter((r) => r.topAllocators !== undefined);
  const shares = new Map<string, number>();
  for (const run of withTop) for (const a of run.topAllocators!) shares.set(a.name, (shares.get(a.name) ?? 0) + a.share / withTop.length);
  const named = [...shares].filter(([, share]) => share >= NAMED_SHARE).sort((a, b) => b[1] - a[1]).slice(0, 2);
  const bytes = fmtBytes(median(perRequest));
  if (named.length === 0) return `Or cut allocation: ${bytes} are allocated per request, with no one function making a tenth of it.`;
  const who = named.map(([name, share]) => `${name} makes ${Math.round(share * 100)}%`).join(', ');
  return `Or cut allocation: ${who} of the ${bytes} allocated per request.`;
}
