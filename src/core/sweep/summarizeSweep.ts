/**
 * From a sweep's raw runs to what the table, the sidebar and sweep.json show: per setting the
 * medians and spreads over the valid runs, the comparison with the baseline per metric, the
 * recommendation, and warnings about anything that makes the figures less trustworthy.
 */
import { median } from '../util/stats';
import { formatSize, recommend } from './recommend';
import { allocationAlternative, allocationInvarianceWarning } from './allocationChecks';
import { formatSetting, primaryMetricOf } from '../../shared/sweepFlags';
import { SWEEP_METRICS, compareSamples, isValidRun, lostRequests, settingMetricValues, spreadOf, validMetricValues } from './sweepStats';
import {
  SEMI_SPACE_FLAG,
  normalizeSweepConfig,
  runPurpose,
  runValue,
  semiSpaceValue,
  sweepFlag,
  sweepValues,
  type Comparison,
  type Recommendation,
  type Spread,
  type SweepConfig,
  type SweepEnvironment,
  type SweepMedians,
  type SweepResult,
  type SweepRun,
  type SweepSettingResult,
} from '../../shared/model/sweep';

/** Rounds needed before the U test can reach p < 0.05 (4 vs 4 → 0.029). */
const MIN_ROUNDS_FOR_TEST = 4;

/**
 * Groups runs by the swept flag's value (in the order of sweepValues(config)), computes medians
 * and spreads over VALID runs only ('ok'; failed requests over every run with load figures),
 * compares each setting with the baseline per metric, and calls recommend() with the flag's
 * primary metric. The baseline is the first value that has a valid run with that metric (the
 * first value of the config unless all its runs were invalid). Never throws; settings without
 * valid runs get null medians. Runs of a value not in the config are kept, after the configured
 * ones, ascending. Reads sweep.json written before `flag`/`values` too (runs with `semiSpaceMB`
 * only, a config with `sizesMB` only).
 * Also returns warnings: too few valid rounds for a test, a high load average before a run, invalid
 * runs and runs that lost requests per setting, cancelled runs, a baseline that had to move, an
 * effective semi-space that differs from the requested one (semi-space sweeps).
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
    const flag = safeFlag(config);
    return {
      results: [],
      recommendation: { flag, value: null, semiSpaceMB: null, metric: primaryMetricOf(flag), reason: 'No recommendation: the sweep could not be analysed.' },
      warnings: [`The sweep could not be analysed: ${error instanceof Error ? error.message : String(error)}`],
    };
  }
}

function safeFlag(config: SweepConfig): string {
  try {
    return sweepFlag(config);
  } catch {
    return SEMI_SPACE_FLAG;
  }
}

function summarize(
  runs: readonly SweepRun[],
  config: SweepConfig,
  environment: SweepEnvironment,
): { results: SweepSettingResult[]; recommendation: Recommendation; warnings: string[] } {
  const flag = sweepFlag(config);
  const metric = primaryMetricOf(flag);
  const values = settingOrder(runs, config);
  const byValue = new Map<number, SweepRun[]>(values.map((v) => [v, []]));
  for (const run of runs) byValue.get(runValue(run))?.push(run);
  for (const list of byValue.values()) list.sort((a, b) => a.index - b.index);
  // The statistics come from the measured runs; the profiling runs give only what their profilers
  // measure (the allocations), since those profilers change the rest.
  const measuredOf = (v: number) => byValue.get(v)!.filter((r) => runPurpose(r) === 'measure');
  const split = pretenuringSplit(runs);

  const baselineValue = values.find((v) => !split.has(v) && validMetricValues(measuredOf(v), metric).length > 0) ?? values[0];
  const baselineRuns = baselineValue === undefined ? [] : measuredOf(baselineValue);

  const results: SweepSettingResult[] = values.map((value) => {
    const settingRuns = byValue.get(value)!;
    const measured = measuredOf(value);
    const medianOut = {} as SweepMedians;
    const spread: Partial<Record<keyof SweepMedians, Spread>> = {};
    const vsBaseline: Partial<Record<keyof SweepMedians, Comparison>> = {};
    for (const m of SWEEP_METRICS) {
      const sample = settingMetricValues(PROFILED_METRICS.has(m) ? settingRuns : measured, m);
      medianOut[m] = sample.length > 0 ? median(sample) : null;
      const s = spreadOf(sample);
      if (s) spread[m] = s;
      // Rounds in two GC regimes (V8 tenured a site in some, not in others) are not one sample.
      if (value !== baselineValue && sample.length > 0 && !split.has(value) && !split.has(baselineValue ?? NaN)) {
        const base = settingMetricValues(baselineRuns, m);
        if (base.length > 0) vsBaseline[m] = compareSamples(sample, base);
      }
    }
    const effective = measured
      .filter(isValidRun)
      .map((r) => r.effectiveSemiSpaceMB)
      .filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    return {
      flag,
      value,
      semiSpaceMB: semiSpaceValue(flag, value),
      effectiveSemiSpaceMB: effective.length > 0 ? median(effective) : null,
      runs: settingRuns,
      validRuns: measured.filter(isValidRun).length,
      failedRequests: measured.filter((r) => r.status !== 'cancelled').reduce((sum, r) => sum + lostRequests(r), 0),
      baseline: value === baselineValue,
      median: medianOut,
      spread,
      vsBaseline,
    };
  });

  const recommended: Recommendation =
    baselineValue === undefined
      ? { flag, value: null, semiSpaceMB: null, metric, reason: 'No recommendation: the sweep has no settings.' }
      : recommend(
          // Measured runs only; a value split between two GC regimes is left out (its warning says why).
          results.map((r) => ({ ...r, runs: split.has(r.value) ? [] : r.runs.filter((run) => runPurpose(run) === 'measure') })),
          baselineValue,
          { flag, metric },
        );
  // The code-side alternative, whatever the flag's verdict: less garbage helps at any size.
  const alternative = allocationAlternative(results);
  const recommendation = alternative ? { ...recommended, reason: `${recommended.reason} ${alternative}` } : recommended;

  const warnings = warningsFor(results, runs, config, environment);
  warnings.push(...pretenuringWarnings(split, flag));
  const invariance = allocationInvarianceWarning(results);
  if (invariance) warnings.push(invariance);
  if (baselineValue !== undefined && values[0] !== undefined && baselineValue !== values[0]) {
    warnings.push(
      `${formatSetting(flag, values[0])} had no valid run to compare with: the comparisons ("vs base") are against ${formatSetting(flag, baselineValue)} instead.`,
    );
  }
  return { results, recommendation, warnings };
}

/** sweepValues(config) first (without duplicates), then any other values found in the runs, ascending. */
function settingOrder(runs: readonly SweepRun[], config: SweepConfig): number[] {
  const values: number[] = [];
  for (const v of sweepValues(config)) if (Number.isFinite(v) && !values.includes(v)) values.push(v);
  const extra = [...new Set(runs.map(runValue))].filter((v) => Number.isFinite(v) && !values.includes(v));
  return [...values, ...extra.sort((a, b) => a - b)];
}

/**
 * A sweep.json as this version writes it, from one written by any earlier one: the config gets
 * `flag` and `values`, runs and settings `flag`, `value` and the new figures (Mark-Compacts per
 * 1k requests, failed requests), the recommendation `value` and `metric`. A file without them is
 * summarised again from its runs (the rule has not changed for the semi-space, so the verdict is
 * the same); its warnings are kept as written. A current file comes back unchanged.
 */
export function normalizeSweepResult(result: SweepResult): SweepResult {
  const current =
    typeof result.config?.flag === 'string' &&
    Array.isArray(result.config.values) &&
    (result.results ?? []).every((r) => typeof r.value === 'number' && typeof r.failedRequests === 'number') &&
    typeof result.recommendation?.metric === 'string';
  if (current) return result;
  const config = normalizeSweepConfig(result.config);
  const flag = sweepFlag(config);
  const runs = (result.results ?? []).flatMap((r) => r.runs ?? []).map((run) => upgradeRun(run, flag));
  const summary = summarizeSweep(runs, config, result.environment);
  return { ...result, config, results: summary.results, recommendation: summary.recommendation, warnings: result.warnings ?? summary.warnings };
}

function upgradeRun(run: SweepRun, flag: string): SweepRun {
  const perK = (n: number | undefined) => (run.gc && run.load && run.load.requests > 0 && typeof n === 'number' ? Math.round((n / run.load.requests) * 1000 * 1e4) / 1e4 : null);
  return {
    ...run,
    flag: run.flag ?? flag,
    value: runValue(run),
    semiSpaceMB: semiSpaceValue(run.flag ?? flag, runValue(run)),
    markCompactsPer1k: run.markCompactsPer1k !== undefined ? run.markCompactsPer1k : perK(run.gc?.markCompacts),
    markCompactMsPer1k: run.markCompactMsPer1k !== undefined ? run.markCompactMsPer1k : perK(run.gc?.markCompactMs),
    failedRequests: run.failedRequests !== undefined ? run.failedRequests : run.load ? lostRequests(run) : null,
  };
}

function warningsFor(
  results: readonly SweepSettingResult[],
  runs: readonly SweepRun[],
  config: SweepConfig,
  environment: SweepEnvironment,
): string[] {
  const warnings: string[] = [];
  const flag = sweepFlag(config);
  const name = (v: number) => formatSetting(flag, v);

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
        `Load average was ${worst.loadAverage1m.toFixed(2)} before run ${worst.index + 1} (${name(runValue(worst))}), above half of the ${cores} cores` +
          `${busy > 1 ? ` (${busy} runs started that busy)` : ''}: other work on the machine makes the figures noisier.`,
      );
    }
  }

  // Invalid runs and runs that lost requests, per setting.
  for (const r of results) {
    const counted = r.runs.filter((run) => run.status !== 'cancelled' && runPurpose(run) === 'measure');
    const invalid = counted.filter((run) => run.status === 'invalid');
    if (invalid.length > 0) {
      const first = invalid.find((run) => run.reason)?.reason;
      warnings.push(
        `${name(r.value)}: ${invalid.length} of ${counted.length} runs invalid${first ? ` (${first})` : ''}; left out of the figures, and the setting is never recommended.`,
      );
    }
    const lossy = counted.filter((run) => isValidRun(run) && lostRequests(run) > 0);
    if (lossy.length > 0) {
      const lost = lossy.reduce((s, run) => s + lostRequests(run), 0);
      warnings.push(
        `${name(r.value)}: ${lossy.length} of ${counted.length} runs lost requests (${lost} errors, timeouts or non-2xx answers); the setting is never recommended.`,
      );
    }
    if (counted.length > 0 && r.validRuns === 0) {
      warnings.push(`${name(r.value)}: no valid run, no figures.`);
    }
  }
  const profiling = runs.filter((r) => runPurpose(r) === 'profile' && r.status === 'invalid');
  for (const run of profiling) {
    warnings.push(`The profiling run at ${name(runValue(run))} failed${run.reason ? ` (${run.reason})` : ''}: its report and allocation figures are missing; the measured figures stand.`);
  }
  const cancelled = runs.filter((r) => r.status === 'cancelled').length;
  if (cancelled > 0) warnings.push(`${cancelled} run${cancelled === 1 ? ' was' : 's were'} cancelled and left out.`);

  // Effective semi-space differs from the requested one (only a semi-space sweep requests one).
  for (const r of flag === SEMI_SPACE_FLAG ? results : []) {
    const eff = r.effectiveSemiSpaceMB;
    if (eff === null) continue;
    if (Math.abs(eff - r.value) <= Math.max(0.5, 0.02 * r.value)) continue;
    const why =
      eff < r.value
        ? config?.pinMinSemiSpace
          ? 'V8 capped it'
          : 'capped by V8, or the new space had not finished growing; pinning the minimum semi-space starts it at full size'
        : 'V8 or the app set it larger';
    warnings.push(
      `${formatSize(r.value)} requested, but the process had a ${formatSize(round2(eff))} semi-space: ${why}. The table shows the effective size.`,
    );
  }
  return warnings;
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}

/** Metrics only a profiling run measures (measured runs have no allocation sampler). */
const PROFILED_METRICS: ReadonlySet<string> = new Set(['allocBytesPerRequest']);

/**
 * Values whose valid measured runs disagree on pretenuring: V8 tenured an allocation site in some
 * rounds and in none in others. V8 decides that on where the first scavenges fall, so it can flip
 * between runs of the same program; the two groups are two GC regimes (design-notes.md: 109 vs 335
 * scavenges per 1k requests), whose median would describe neither. Value → [tenured, not tenured] rounds.
 */
export function pretenuringSplit(runs: readonly SweepRun[]): Map<number, [number, number]> {
  const byValue = new Map<number, [number, number]>();
  for (const run of runs) {
    if (runPurpose(run) !== 'measure' || !isValidRun(run) || !run.pretenuring) continue;
    const counts = byValue.get(runValue(run)) ?? [0, 0];
    counts[run.pretenuring.sitesTenured > 0 ? 0 : 1]++;
    byValue.set(runValue(run), counts);
  }
  for (const [value, [tenured, not]] of byValue) if (tenured === 0 || not === 0) byValue.delete(value);
  return byValue;
}

function pretenuringWarnings(split: ReadonlyMap<number, [number, number]>, flag: string): string[] {
  return [...split].map(
    ([value, [tenured, not]]) =>
      `${formatSetting(flag, value)}: V8 tenured an allocation site in ${tenured} round${tenured === 1 ? '' : 's'} and in none in ${not}: ` +
      'its rounds ran in two GC regimes (pretenuring moves objects straight to the old generation), so it is not compared with the others. ' +
      'More rounds show which regime is usual; --no-allocation-site-pretenuring in the target\'s Node arguments takes the decision out.',
  );
}
