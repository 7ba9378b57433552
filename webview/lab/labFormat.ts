/** Formatting the lab's form, progress and results share. */
import { formatValueWithUnit } from '../../src/shared/sweepFlags';
import { SEMI_SPACE_FLAG } from '../../src/shared/model/sweep';

export function formatDuration(seconds: number): string {
  return seconds < 90 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 60)} min`;
}

/** "64 MB", "4": a run's value with the flag's unit (an older host sent only semiSpaceMB). */
export function runSetting(flag: string | undefined, value: number | undefined, semiSpaceMB: number | null | undefined): string {
  return formatValueWithUnit(flag ?? SEMI_SPACE_FLAG, value ?? semiSpaceMB ?? NaN);
}
