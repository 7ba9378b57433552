/**
 * From a sweep's raw runs to what the table, the sidebar and sweep.json show: per setting the
 * medians and spreads over the valid runs, the comparison with the baseline per metric, the
 * recommendation, and warnings about anything that makes the figures less trustworthy.
 */
import { median } from '../util/stats';
import { recommend, formatSize } from './recommend';
import { SWEEP_METRICS, compareSamples, isValidRun, lostRequests, spreadOf, validMetricValues } from './sweepStats';
import type {
  Comparison,
  Recommendation,
  Spread,
  SweepConfig,
  SweepEnvironment,
  SweepMedians,
  SweepRun,
  SweepSettingResult,
} from './sweepTypes';

/** Rounds needed before the U test can reach p < 0.05 (4 vs 4 → 0.029). */
const MIN_ROUNDS_FOR_TEST = 4;

/**
 * Groups runs by setting (in the order of config.sizesMB), computes medians and spreads over VALID
 * runs only ('ok'), compares each setting with the baseline (the first size in sizesMB, normally
 * the smallest) per metric, and calls recommend(). Never throws; settings without valid runs get
 * null medians. Runs of a size not in sizesMB are kept, after the configured ones, by size.
 * Also returns warnings: too few valid rounds for a test, a high load average before a run, invalid
 * runs and runs that lost requests per setting, cancelled runs, an effective semi-space that
 * differs from the requested one.
 */
export function summarizeSweep(
  runs: readonly SweepRun[],
  config: SweepConfig,
  environment: SweepEnvironment,
): { results: SweepSettingResult[]; recommendation: Recommendation; warnings: string[] } {
  try {
    return summarize(runs ?? [], config, environment);
  } catch (error) {
    // Never throws: a malformed input still gives an answer the UI can show.
    return {
      results: [],
      recommendation: { semiSpaceMB: null, reason: 'Keep the default: the sweep could not be analysed.' },
      warnings: [`The sweep could not be analysed: ${error instanceof Error ? error.message : String(error)}`],
    };
  }
}

function summarize(
  runs: readonly SweepRun[],
  config: SweepConfig,
  environment: SweepEnvironment,
): { results: SweepSettingResult[]; recommendation: Recommendation; warnings: string[] } {
  const sizes = settingOrder(runs, config);
  const bySize = new Map<number, SweepRun[]>(sizes.map((s) => [s, []]));
  for (const run of runs) bySize.get(run.semiSpaceMB)?.push(run);
  for (const list of bySize.values()) list.sort((a, b) => a.index - b.index);

  const baselineMB = sizes[0];
  const baselineRuns = baselineMB === undefined ? [] : bySize.get(baselineMB)!;

  const results: SweepSettingResult[] = sizes.map((semiSpaceMB) => {
    const settingRuns = bySize.get(semiSpaceMB)!;
    const medianOut = {} as SweepMedians;
    const spread: Partial<Record<keyof SweepMedians, Spread>> = {};
    const vsBaseline: Partial<Record<keyof SweepMedians, Comparison>> = {};
    for (const metric of SWEEP_METRICS) {
      const values = validMetricValues(settingRuns, metric);
      medianOut[metric] = values.length > 0 ? median(values) : null;
      const s = spreadOf(values);
      if (s) spread[metric] = s;
      if (semiSpaceMB !== baselineMB && values.length > 0) {
        const base = validMetricValues(baselineRuns, metric);
        if (base.length > 0) vsBaseline[metric] = compareSamples(values, base);
      }
    }
    const effective = settingRuns
      .filter(isValidRun)
      .map((r) => r.effectiveSemiSpaceMB)
      .filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    return {
      semiSpaceMB,
      effectiveSemiSpaceMB: effective.length > 0 ? median(effective) : null,
      runs: settingRuns,
      validRuns: settingRuns.filter(isValidRun).length,
      median: medianOut,
      spread,
      vsBaseline,
    };
  });

  const recommendation: Recommendation =
    baselineMB === undefined
      ? { semiSpaceMB: null, reason: 'Keep the default: the sweep has no settings.' }
      : recommend(results, baselineMB);

  return { results, recommendation, warnings: warningsFor(results, runs, config, environment) };
}

/** config.sizesMB first (without duplicates), then any other sizes found in the runs, ascending. */
function settingOrder(runs: readonly SweepRun[], config: SweepConfig): number[] {
  const sizes: number[] = [];
  for (const s of config?.sizesMB ?? []) if (Number.isFinite(s) && !sizes.includes(s)) sizes.push(s);
  const extra = [...new Set(runs.map((r) => r.semiSpaceMB))].filter((s) => Number.isFinite(s) && !sizes.includes(s));
  return [...sizes, ...extra.sort((a, b) => a - b)];
}

function warningsFor(
  results: readonly SweepSettingResult[],
  runs: readonly SweepRun[],
  config: SweepConfig,
  environment: SweepEnvironment,
): string[] {
  const warnings: string[] = [];

  // Too few valid rounds for a test.
  const counts = results.filter((r) => r.validRuns > 0).map((r) => r.validRuns);
  if (counts.length > 0) {
    const fewest = Math.min(...counts);
    if (fewest < MIN_ROUNDS_FOR_TEST) {
      const rounds = config?.rounds;
      const label =
        fewest === rounds ? `${fewest} round${fewest === 1 ? '' : 's'}` : `${fewest} valid round${fewest === 1 ? '' : 's'}${Number.isFinite(rounds) ? ` (of ${rounds})` : ''}`;
      warnings.push(
        `${label}: enough to see big differences, too few to call one significant (4+ rounds for a test, 6 for a confidence interval)`,
      );
    }
  }

  // A busy machine: load average above half the cores before a run; name the highest.
  const cores = environment?.cpus;
  if (typeof cores === 'number' && cores > 0) {
    let worst: SweepRun | null = null;
    for (const run of runs) {
      if (!Number.isFinite(run.loadAverage1m)) continue;
      if (run.loadAverage1m > 0.5 * cores && (worst === null || run.loadAverage1m > worst.loadAverage1m)) worst = run;
    }
    if (worst) {
      const busy = runs.filter((r) => Number.isFinite(r.loadAverage1m) && r.loadAverage1m > 0.5 * cores).length;
      warnings.push(
        `Load average was ${worst.loadAverage1m.toFixed(2)} before run ${worst.index + 1} (${formatSize(worst.semiSpaceMB)}), above half of the ${cores} cores` +
          `${busy > 1 ? ` (${busy} runs started that busy)` : ''}: other work on the machine makes the figures noisier.`,
      );
    }
  }

  // Invalid runs and runs that lost requests, per setting.
  for (const r of results) {
    const counted = r.runs.filter((run) => run.status !== 'cancelled');
    const invalid = counted.filter((run) => run.status === 'invalid');
    if (invalid.length > 0) {
      const first = invalid.find((run) => run.reason)?.reason;
      warnings.push(
        `${formatSize(r.semiSpaceMB)}: ${invalid.length} of ${counted.length} runs invalid${first ? ` (${first})` : ''}; left out of the figures, and the setting is never recommended.`,
      );
    }
    const lossy = counted.filter((run) => isValidRun(run) && lostRequests(run) > 0);
    if (lossy.length > 0) {
      const lost = lossy.reduce((s, run) => s + lostRequests(run), 0);
      warnings.push(
        `${formatSize(r.semiSpaceMB)}: ${lossy.length} of ${counted.length} runs lost requests (${lost} errors, timeouts or non-2xx answers); the setting is never recommended.`,
      );
    }
    if (counted.length > 0 && r.validRuns === 0) {
      warnings.push(`${formatSize(r.semiSpaceMB)}: no valid run, no figures.`);
    }
  }
  const cancelled = runs.filter((r) => r.status === 'cancelled').length;
  if (cancelled > 0) warnings.push(`${cancelled} run${cancelled === 1 ? ' was' : 's were'} cancelled and left out.`);

  // Effective semi-space differs from the requested one.
  for (const r of results) {
    const eff = r.effectiveSemiSpaceMB;
    if (eff === null) continue;
    if (Math.abs(eff - r.semiSpaceMB) <= Math.max(0.5, 0.02 * r.semiSpaceMB)) continue;
    const why =
      eff < r.semiSpaceMB
        ? config?.pinMinSemiSpace
          ? 'V8 capped it'
          : 'capped by V8, or the new space had not finished growing; pinning the minimum semi-space starts it at full size'
        : 'V8 or the app set it larger';
    warnings.push(
      `${formatSize(r.semiSpaceMB)} requested, but the process had a ${formatSize(round2(eff))} semi-space: ${why}. The table shows the effective size.`,
    );
  }
  return warnings;
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}
