import type { CpuPositionTick } from './cpuProfileFormat';

export const NO_POSITION_TICKS: readonly CpuPositionTick[] = Object.freeze([]);

/**
 * `positionTicks` (lines already 1-based). A well-formed list is used as it is, not copied (half the
 * nodes of a big profile have one); entries that are not `{ line ≥ 1, ticks ≥ 0 }` are dropped and
 * counted, so one odd entry does not cost the whole node its line data.
 */
export function readPositionTicks(raw: unknown, dropped: { count: number }): readonly CpuPositionTick[] {
  if (!Array.isArray(raw) || raw.length === 0) return NO_POSITION_TICKS;
  const list = raw as unknown[];
  let valid = 0;
  for (let i = 0; i < list.length; i++) if (isTick(list[i])) valid++;
  if (valid === list.length) return list as CpuPositionTick[];
  dropped.count += list.length - valid;
  const ticks = list.filter(isTick);
  return ticks.length === 0 ? NO_POSITION_TICKS : ticks;
}

function isTick(entry: unknown): entry is CpuPositionTick {
  if (typeof entry !== 'object' || entry === null) return false;
  const line = (entry as { line?: unknown }).line;
  const ticks = (entry as { ticks?: unknown }).ticks;
  return typeof line === 'number' && line >= 1 && line % 1 === 0 && typeof ticks === 'number' && ticks >= 0;
}
