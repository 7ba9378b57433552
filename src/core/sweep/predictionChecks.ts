/**
 * A sweep that confirms a prediction (config.prediction): per swept size, what the run predicted
 * beside what the lab measured (medians of the valid measured rounds), with the error. The young-GC
 * pause is the scavenges' own (the lab's GC ms per 1k also holds the Mark-Compacts). It is in its
 * range when the rounds at the size reach it: two rounds of one size paused up to 26% apart here
 * (32.6 and 42.3 ms per 1k), and a service whose scavenges cost the same at any size sits at the
 * range's low end, where a median of a few rounds falls on either side by chance.
 */
import { median, round } from '../util/stats';
import { isValidRun } from './sweepStats';
import { runPurpose, settingValue, type SweepRun, type SweepSettingResult } from '../../shared/model/sweep';
import type { PauseDirection, PredictionCheck, SweepPrediction } from '../../shared/model/prediction';

/** Within this of the run's own size's expected pause, a predicted pause counts as unchanged. */
const FLAT = 0.05;

export function predictionChecks(results: readonly SweepSettingResult[], prediction: SweepPrediction): PredictionCheck[] {
  const runsAt = (mb: number) => (results.find((r) => settingValue(r) === mb)?.runs ?? []).filter((r) => isValidRun(r) && runPurpose(r) === 'measure');
  const currentMB = Math.max(1, Math.round(prediction.currentMB));
  const currentRow = prediction.rows.find((r) => r.semiSpaceMB === currentMB);
  const currentPauses = values(runsAt(currentMB), youngMsPer1k);
  return prediction.rows.map((row) => {
    const runs = runsAt(row.semiSpaceMB);
    const scavenges = medianOf(values(runs, (r) => r.scavengesPer1k));
    const youngRounds = values(runs, youngMsPer1k);
    const youngMs = medianOf(youngRounds);
    const pause = row.youngPauseMsPerUnit;
    return {
      semiSpaceMB: row.semiSpaceMB,
      validRuns: runs.length,
      predictedScavengesPer1k: row.scavengesPerUnit,
      measuredScavengesPer1k: scavenges,
      scavengesError: relativeError(scavenges, row.scavengesPerUnit),
      predictedYoungMsPer1k: pause,
      measuredYoungMsPer1k: youngMs,
      youngMsInRange: youngRounds.length === 0 ? null : Math.max(...youngRounds) >= pause.low && Math.min(...youngRounds) <= pause.high,
      youngMsError: relativeError(youngMs, pause.expected),
      predictedDirection: row.semiSpaceMB === currentMB || !currentRow ? null : direction(pause.expected, currentRow.youngPauseMsPerUnit.expected),
      measuredDirection: row.semiSpaceMB === currentMB ? null : measuredDirection(youngRounds, currentPauses),
      regimeDiffers: regimeDiffers(prediction.sitesTenured, runs),
    };
  });
}

function direction(at: number, now: number): PauseDirection {
  if (at < now * (1 - FLAT)) return 'down';
  if (at > now * (1 + FLAT)) return 'up';
  return 'flat';
}

/** 'down'/'up' when the rounds at the size lie all below (above) those at the run's size; '~' when they overlap. */
function measuredDirection(at: readonly number[], now: readonly number[]): PauseDirection | '~' | null {
  if (at.length === 0 || now.length === 0) return null;
  if (Math.max(...at) < Math.min(...now)) return 'down';
  if (Math.min(...at) > Math.max(...now)) return 'up';
  return '~';
}

/** A sentence when V8 tenured allocation sites in the run and in none of the lab's runs, or the reverse. */
function regimeDiffers(runTenured: number | null, runs: readonly SweepRun[]): string | null {
  const lab = runs.map((r) => r.pretenuring?.sitesTenured).filter((n): n is number => typeof n === 'number');
  if (runTenured === null || lab.length === 0) return null;
  const labTenured = lab.filter((n) => n > 0).length;
  if (runTenured > 0 && labTenured === 0) return `V8 tenured ${runTenured} allocation site${runTenured === 1 ? '' : 's'} in the run and none in the lab's runs at this size: two GC regimes, not comparable figure for figure`;
  if (runTenured === 0 && labTenured > 0) return `V8 tenured allocation sites in ${labTenured} of the lab's ${lab.length} runs at this size and none in the run: two GC regimes, not comparable figure for figure`;
  return null;
}

/** A measured run's scavenge pause per 1,000 requests of its window; null without either. */
export function youngMsPer1k(run: SweepRun): number | null {
  const requests = run.load?.requests;
  const ms = run.gc?.scavengeMs;
  if (typeof ms !== 'number' || typeof requests !== 'number' || !(requests > 0)) return null;
  return (ms / requests) * 1000;
}

/** Each run's figure, where it has one. */
function values(runs: readonly SweepRun[], pick: (r: SweepRun) => number | null): number[] {
  return runs.map(pick).filter((v): v is number => v !== null && Number.isFinite(v));
}

/** The median of the figures, rounded; null when there are none. */
function medianOf(found: readonly number[]): number | null {
  return found.length > 0 ? round(median(found), 4) : null;
}

/** (measured − predicted) / measured, so +10% means the lab measured 10% more than predicted. */
function relativeError(measuredValue: number | null, predicted: number): number | null {
  if (measuredValue === null || !(measuredValue > 0)) return null;
  return round((measuredValue - predicted) / measuredValue, 4);
}
