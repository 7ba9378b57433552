/**
 * Which value of the swept flag to recommend after a sweep, and why, in words that do not claim
 * more than the data shows (gc.md sections 8, 9 and 13). Written for `--max-semi-space-size` first;
 * the same rule serves any numeric flag, with the flag's own primary metric (sweepFlags.ts).
 *
 * The rule:
 *
 * 0. Only settings whose every run was valid can be recommended: a setting with an invalid run
 *    (never ready, crashed, …) or a run that lost requests (errors, timeouts, non-2xx answers) is
 *    never recommended, however fast, because a faster server that drops requests is not faster.
 *    If such a setting would otherwise have won, the reason says so. Cancelled runs (the user
 *    stopped the sweep) are no verdict on the setting and are left out.
 * 1. Primary metric, per request (lower is better), so a closed-loop run that served more
 *    requests is not penalised for doing more work: GC ms per 1k requests for the semi-space and
 *    other young-generation or unknown flags; Mark-Compact ms per 1k requests for
 *    `--max-old-space-size` and other old-generation flags (what a bigger old space buys is fewer
 *    full GCs; its peak RSS is named in the reason with its absolute value).
 * 2. A setting is "better" only if the exact two-sided Mann-Whitney U test against the baseline
 *    gives p < 0.05 AND its median is at least 3% lower (ratio ≤ 0.97): significant and worth it.
 * 3. Guard: its req/s must not be significantly worse than the baseline (p < 0.05 and over 3%).
 * 4. Memory is the bill: among the better settings, take the SMALLEST value whose primary median
 *    is within 10% of the best one. A margin of 10% is about the run-to-run noise of a shared
 *    machine, while RSS keeps growing with the sizes (3 × semi-space of young generation), so a
 *    bigger value must earn its memory. Larger values are then named with their RSS increase
 *    and whether they gave a significant further gain over the chosen one.
 * 5. Too few runs for a test (the smallest attainable p is ≥ 0.05: 3 vs 3 gives 0.10): nothing
 *    can be called significant. A tentative recommendation is still given for a big, plain
 *    effect: 3+ valid runs on each side, the primary metric's ranges do not overlap at all, the
 *    ratio is < 0.7 and the req/s median is not more than 3% lower (gc.md section 9: at 3 runs a
 *    2× change is plainly visible though no test can certify it); the same smallest-within-10%
 *    choice applies, and the reason starts with "Tentative (N rounds, no test possible):".
 *    Otherwise: keep the default.
 * 6. Keep the baseline (value null) whenever nothing passes, saying why: no detectable
 *    difference, too few rounds, req/s got worse, or the only winner lost requests.
 *
 * Settings are written "64 MB" for the semi-space (as the lab always did) and "--flag=value" for
 * any other flag, so every reason names what it is about.
 */
import { median } from '../util/stats';
import { formatSetting, formatSettings, isOldSpaceFlag, metricLabel, primaryMetricOf } from '../../shared/sweepFlags';
import {
  ALPHA,
  PRACTICAL_THRESHOLD,
  compareSamples,
  isValidRun,
  lostRequests,
  mannWhitneyU,
  minAttainableP,
  ratio,
  validMetricValues,
} from './sweepStats';
import { SEMI_SPACE_FLAG, semiSpaceValue, settingValue, type PrimaryMetric, type Recommendation, type SweepSettingResult } from '../../shared/model/sweep';

/** Better than the baseline means at least 3% lower (ratio ≤ 0.97). */
const WIN_RATIO = 1 - PRACTICAL_THRESHOLD;
/** "As good as the best": a primary median within 10% of the best one. */
const NEAR_BEST = 1.1;
/** A tentative (untested) recommendation needs a big effect: at least 30% less of the primary metric. */
const TENTATIVE_RATIO = 0.7;
/** …seen in at least 3 valid runs on each side (a "range" of one or two runs says little). */
const TENTATIVE_MIN_RUNS = 3;

export interface RecommendOptions {
  /** The swept flag (default the semi-space). */
  flag?: string;
  /** What decides (default: the flag's primary metric, see sweepFlags.ts). */
  metric?: PrimaryMetric;
}

interface Candidate {
  result: SweepSettingResult;
  value: number;
  /** Valid runs' primary metric. */
  primary: number[];
  primaryMedian: number;
  primaryRatio: number | null;
  primaryP: number | null;
  /** Whether the U test could reach p < 0.05 at all with these sample sizes. */
  testable: boolean;
  rpsRatio: number | null;
  rpsP: number | null;
  rpsWorse: boolean;
  rssMedian: number | null;
  rssRatio: number | null;
  /** Why this setting may never be recommended (lost requests, invalid runs); null when eligible. */
  failure: string | null;
}

interface Choice {
  mode: 'significant' | 'tentative';
  chosen: Candidate;
  winners: Candidate[];
}

/** How the texts name settings and the metric, for one sweep. */
interface Words {
  flag: string;
  metric: PrimaryMetric;
  /** "GC ms per 1k requests" */
  metricLong: string;
  /** "GC ms per 1k" */
  metricShort: string;
  /** Old-space flags: peak RSS with its value, not only its change. */
  rssFirst: boolean;
  one(value: number): string;
  many(values: readonly number[]): string;
}

export function recommend(results: readonly SweepSettingResult[], baselineValue: number, options: RecommendOptions = {}): Recommendation {
  const flag = options.flag ?? SEMI_SPACE_FLAG;
  const metric = options.metric ?? primaryMetricOf(flag);
  const words: Words = {
    flag,
    metric,
    metricLong: metricLabel(metric),
    metricShort: metricLabel(metric, true),
    rssFirst: isOldSpaceFlag(flag),
    one: (v) => formatSetting(flag, v),
    many: (vs) => formatSettings(flag, vs),
  };
  const keep = (reason: string): Recommendation => ({ flag, value: null, semiSpaceMB: null, metric, reason });

  const base = results.find((r) => settingValue(r) === baselineValue);
  const baseName = words.one(baselineValue);
  const basePrimary = base ? validMetricValues(base.runs, metric) : [];
  if (!base || basePrimary.length === 0) {
    return keep(`Keep the baseline, ${baseName}: it has no valid run with GC figures, so there is nothing to compare against.`);
  }
  const baseRps = validMetricValues(base.runs, 'rps');
  const baseRssValues = validMetricValues(base.runs, 'peakRssMB');
  const baseRss = baseRssValues.length > 0 ? median(baseRssValues) : null;

  const candidates: Candidate[] = [];
  for (const result of results) {
    const value = settingValue(result);
    if (result === base || value === baselineValue) continue;
    const primary = validMetricValues(result.runs, metric);
    if (primary.length === 0) continue;
    const cmp = compareSamples(primary, basePrimary);
    const rps = validMetricValues(result.runs, 'rps');
    const rpsCmp = compareSamples(rps, baseRps);
    const rss = validMetricValues(result.runs, 'peakRssMB');
    const rssMedian = rss.length > 0 ? median(rss) : null;
    candidates.push({
      result,
      value,
      primary,
      primaryMedian: median(primary),
      primaryRatio: cmp.ratio,
      primaryP: cmp.p,
      testable: cmp.p !== null && minAttainableP(primary.length, basePrimary.length) < ALPHA,
      rpsRatio: rpsCmp.ratio,
      rpsP: rpsCmp.p,
      rpsWorse: rpsCmp.significant && rpsCmp.ratio !== null && rpsCmp.ratio < 1,
      rssMedian,
      rssRatio: rssMedian !== null && baseRss !== null ? ratio(rssMedian, baseRss) : null,
      failure: failureOf(result),
    });
  }
  candidates.sort((a, b) => a.value - b.value);

  const eligible = candidates.filter((c) => c.failure === null);
  const pick = choose(eligible, basePrimary);
  // The same choice with the validity rule waived: did a failing setting lose us the "win"?
  const unrestricted = choose(candidates, basePrimary);
  const disqualified =
    unrestricted && unrestricted.chosen.failure !== null && unrestricted.chosen !== pick?.chosen
      ? `${words.one(unrestricted.chosen.value)} would otherwise have won (${words.metricLong} ${formatChange(unrestricted.chosen.primaryRatio)}) but ${unrestricted.chosen.failure}: a setting that loses requests or runs is never recommended.`
      : null;

  if (pick) {
    const reason = [pickSentence(pick, candidates, basePrimary, baseName, words), disqualified].filter(Boolean).join(' ');
    const value = pick.chosen.value;
    return { flag, value, semiSpaceMB: semiSpaceValue(flag, value), metric, reason };
  }
  return keep([keepSentence(eligible, candidates, basePrimary, baseName, words), disqualified].filter(Boolean).join(' '));
}

/** Steps 2–5: significant winners first, else tentative ones; the smallest within 10% of the best. */
function choose(candidates: readonly Candidate[], basePrimary: readonly number[]): Choice | null {
  const significant = candidates.filter(
    (c) => c.primaryP !== null && c.primaryP < ALPHA && c.primaryRatio !== null && c.primaryRatio <= WIN_RATIO && !c.rpsWorse,
  );
  if (significant.length > 0) return { mode: 'significant', chosen: smallestNearBest(significant), winners: significant };
  const baseMin = Math.min(...basePrimary);
  const tentative = candidates.filter(
    (c) =>
      !c.testable &&
      c.primary.length >= TENTATIVE_MIN_RUNS &&
      basePrimary.length >= TENTATIVE_MIN_RUNS &&
      Math.max(...c.primary) < baseMin &&
      c.primaryRatio !== null &&
      c.primaryRatio < TENTATIVE_RATIO &&
      (c.rpsRatio === null || c.rpsRatio >= WIN_RATIO),
  );
  if (tentative.length > 0) return { mode: 'tentative', chosen: smallestNearBest(tentative), winners: tentative };
  return null;
}

function smallestNearBest(winners: readonly Candidate[]): Candidate {
  const best = Math.min(...winners.map((c) => c.primaryMedian));
  const near = winners.filter((c) => c.primaryMedian <= best * NEAR_BEST).sort((a, b) => a.value - b.value);
  return near[0]!;
}

/** "RSS +34%", or for old-space flags "peak RSS 481 MB (+34%)". */
function rssPart(c: Candidate, words: Words): string {
  if (words.rssFirst) {
    if (c.rssMedian === null) return 'peak RSS not measured';
    return `peak RSS ${Math.round(c.rssMedian)} MB${c.rssRatio === null ? '' : ` (${formatChange(c.rssRatio)})`}`;
  }
  return c.rssRatio === null ? 'RSS not measured' : `RSS ${formatChange(c.rssRatio)}`;
}

function pickSentence(pick: Choice, candidates: readonly Candidate[], basePrimary: readonly number[], baseName: string, words: Words): string {
  const c = pick.chosen;
  const tentative = pick.mode === 'tentative';
  const rounds = Math.min(c.primary.length, basePrimary.length);
  const primaryPart = tentative
    ? `${words.metricLong} ${formatChange(c.primaryRatio)} vs ${baseName} (ranges do not overlap)`
    : `${words.metricLong} ${formatChange(c.primaryRatio)} vs ${baseName} (${formatP(c.primaryP)})`;
  const rpsPart =
    c.rpsRatio === null
      ? 'req/s not measured'
      : tentative || c.rpsP === null
        ? `req/s ${formatChange(c.rpsRatio)} (untested)`
        : `req/s ${formatChange(c.rpsRatio)} (${formatP(c.rpsP)}${c.rpsP < ALPHA ? '' : ', within noise'})`;
  let text = `${words.one(c.value)}: ${primaryPart}, ${rpsPart}, ${rssPart(c, words)}`;

  const larger = largerValues(pick, candidates, words);
  if (larger) text += `; ${larger}`;
  text += '.';
  if (tentative) {
    text = `Tentative (${rounds} round${rounds === 1 ? '' : 's'}, no test possible): ${text} Run 4+ rounds to test it (6 for confidence intervals).`;
  }
  return text;
}

/** What the values above the chosen one would add: further gain or not, and their RSS bill. */
function largerValues(pick: Choice, candidates: readonly Candidate[], words: Words): string {
  const chosen = pick.chosen;
  const noGain: Candidate[] = [];
  const gain: { c: Candidate; r: number | null; p: number | null }[] = [];
  const untested: Candidate[] = [];
  const worseRps: Candidate[] = [];
  const failed: Candidate[] = [];
  for (const c of candidates) {
    if (c.value <= chosen.value) continue;
    if (c.failure !== null) {
      failed.push(c);
      continue;
    }
    if (c.rpsWorse) {
      worseRps.push(c);
      continue;
    }
    const test = chosen.primary.length >= 2 && c.primary.length >= 2 ? mannWhitneyU(c.primary, chosen.primary) : null;
    const r = ratio(c.primaryMedian, chosen.primaryMedian);
    const testable = test !== null && minAttainableP(c.primary.length, chosen.primary.length) < ALPHA;
    if (!testable) untested.push(c);
    else if (test.p < ALPHA && r !== null && r <= WIN_RATIO) gain.push({ c, r, p: test.p });
    else noGain.push(c);
  }
  const parts: string[] = [];
  const rssWord = words.rssFirst ? 'peak RSS' : 'RSS';
  const rssList = (cs: readonly Candidate[]) => cs.map((c) => (c.rssRatio === null ? 'n/a' : formatChange(c.rssRatio))).join('/');
  const values = (cs: readonly Candidate[]) => words.many(cs.map((c) => c.value));
  if (noGain.length > 0) parts.push(`${values(noGain)}: no significant further gain, ${rssList(noGain)} ${rssWord}`);
  for (const g of gain) {
    parts.push(`${words.one(g.c.value)}: ${words.metricShort} a further ${formatChange(g.r)} (${formatP(g.p)}) for ${rssList([g.c])} ${rssWord}`);
  }
  if (untested.length > 0) {
    const changes = untested.map((c) => formatChange(ratio(c.primaryMedian, chosen.primaryMedian))).join('/');
    parts.push(`${values(untested)}: ${words.metricShort} ${changes} further (untested), ${rssList(untested)} ${rssWord}`);
  }
  if (worseRps.length > 0) {
    const list = worseRps.map((c) => `${formatChange(c.rpsRatio)} (${formatP(c.rpsP)})`).join('/');
    parts.push(`${values(worseRps)}: req/s ${list}, ruled out`);
  }
  if (failed.length > 0) parts.push(`${values(failed)}: lost requests or runs, never recommended`);
  return parts.join('; ');
}

function keepSentence(eligible: readonly Candidate[], all: readonly Candidate[], basePrimary: readonly number[], baseName: string, words: Words): string {
  if (all.length === 0) return `Keep the baseline, ${baseName}: no other setting has a valid run to compare with ${baseName}.`;
  if (eligible.length === 0) return `Keep the baseline, ${baseName}: every setting other than ${baseName} lost requests or had invalid runs.`;
  // Significant winners that the req/s guard ruled out.
  const guarded = eligible.filter(
    (c) => c.primaryP !== null && c.primaryP < ALPHA && c.primaryRatio !== null && c.primaryRatio <= WIN_RATIO && c.rpsWorse,
  );
  if (guarded.length > 0) {
    const g = guarded.map(
      (c) =>
        `${words.one(c.value)} cut ${words.metricLong} ${formatChange(c.primaryRatio)} (${formatP(c.primaryP)}) but cost req/s ${formatChange(c.rpsRatio)} (${formatP(c.rpsP)})`,
    );
    return `Keep the baseline, ${baseName}: ${g.join('; ')}; nothing else was significantly better than ${baseName}.`;
  }
  const best = [...eligible].sort((a, b) => a.primaryMedian - b.primaryMedian)[0]!;
  const bestText = `best median: ${words.one(best.value)}, ${formatChange(best.primaryRatio)}`;
  if (!eligible.some((c) => c.testable)) {
    const rounds = Math.min(basePrimary.length, ...eligible.map((c) => c.primary.length));
    // A big, plain GC gain that throughput did not follow: say that, not "nothing stood clear".
    const clearGain =
      best.primary.length >= TENTATIVE_MIN_RUNS &&
      basePrimary.length >= TENTATIVE_MIN_RUNS &&
      Math.max(...best.primary) < Math.min(...basePrimary) &&
      best.primaryRatio !== null &&
      best.primaryRatio < TENTATIVE_RATIO;
    if (clearGain && best.rpsRatio !== null && best.rpsRatio < WIN_RATIO) {
      return (
        `Keep the baseline, ${baseName}: ${words.one(best.value)} cut ${words.metricLong} ${formatChange(best.primaryRatio)} vs ${baseName} (ranges do not overlap), ` +
        `but req/s fell ${formatChange(best.rpsRatio)}; with ${rounds} round${rounds === 1 ? '' : 's'} no test can tell whether that is noise. ` +
        `Run 4+ rounds (6 for confidence intervals).`
      );
    }
    return (
      `Keep the baseline, ${baseName}: ${rounds} round${rounds === 1 ? ' is' : 's are'} too few for a test (p cannot go below 0.05), and no setting's ` +
      `${words.metricLong} stood clear of ${baseName} enough for a tentative call (3+ runs each, ranges apart, 30% or more; ${bestText}). ` +
      `Run 4+ rounds (6 for confidence intervals).`
    );
  }
  return (
    `Keep the baseline, ${baseName}: no detectable difference; no setting has ${words.metricLong} significantly lower than ${baseName}'s ` +
    `(needs p < 0.05 and a change over 3%; ${bestText}${best.primaryP !== null ? `, ${formatP(best.primaryP)}` : ''}).`
  );
}

/** "lost requests in 1 of 6 runs (3 errors)", "had 2 invalid runs of 6 (exited with code 1)"; null when clean. */
function failureOf(result: SweepSettingResult): string | null {
  const counted = result.runs.filter((r) => r.status !== 'cancelled');
  const invalid = counted.filter((r) => r.status === 'invalid');
  const lossy = counted.filter((r) => isValidRun(r) && lostRequests(r) > 0);
  const parts: string[] = [];
  if (lossy.length > 0) {
    const sum = (f: (r: (typeof lossy)[number]) => number) => lossy.reduce((s, r) => s + f(r), 0);
    const what = [
      [sum((r) => r.load?.errors ?? 0), 'error'],
      [sum((r) => r.load?.timeouts ?? 0), 'timeout'],
      [sum((r) => r.load?.non2xx ?? 0), 'non-2xx answer'],
    ]
      .filter(([n]) => (n as number) > 0)
      .map(([n, w]) => `${n} ${w}${n === 1 ? '' : 's'}`)
      .join(', ');
    parts.push(`lost requests in ${lossy.length} of ${counted.length} runs (${what})`);
  }
  if (invalid.length > 0) {
    const first = invalid.find((r) => r.reason)?.reason;
    parts.push(`had ${invalid.length} invalid run${invalid.length === 1 ? '' : 's'} of ${counted.length}${first ? ` (${first})` : ''}`);
  }
  return parts.length > 0 ? parts.join(' and ') : null;
}

// ---------------------------------------------------------------------------------------------
// Formatting (shared with the table)
// ---------------------------------------------------------------------------------------------

/** A ratio as a signed percent change: 0.52 → "−48%", 1.09 → "+9%", 1 → "±0%"; null → "n/a". */
export function formatChange(r: number | null | undefined): string {
  if (r == null || !Number.isFinite(r)) return 'n/a';
  const pct = Math.round((r - 1) * 100);
  if (pct === 0) return '±0%';
  return pct > 0 ? `+${pct}%` : `\u2212${-pct}%`;
}

/** "p = 0.03" (2 decimals), "p < 0.01" below that, "no test" for null; never rounds a p < 0.05 up to "0.05". */
export function formatP(p: number | null | undefined): string {
  if (p == null || !Number.isFinite(p)) return 'no test';
  if (p < 0.01) return 'p < 0.01';
  const two = p.toFixed(2);
  if (p < ALPHA && two === '0.05') return `p = ${p.toFixed(3)}`;
  return `p = ${two}`;
}

/** 64 → "64 MB". */
export function formatSize(mb: number): string {
  return `${formatMB(mb)} MB`;
}

/** [128, 256] → "128/256 MB". */
export function formatSizes(mbs: readonly number[]): string {
  return `${mbs.map(formatMB).join('/')} MB`;
}

function formatMB(mb: number): string {
  return Number.isInteger(mb) ? String(mb) : String(Math.round(mb * 100) / 100);
}
