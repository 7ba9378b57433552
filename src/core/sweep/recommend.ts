/**
 * Which `--max-semi-space-size` to recommend after a sweep, and why, in words that do not claim
 * more than the data shows (gc.md sections 8, 9 and 13).
 *
 * The rule:
 *
 * 0. Only settings whose every run was valid can be recommended: a setting with an invalid run
 *    (never ready, crashed, …) or a run that lost requests (errors, timeouts, non-2xx answers) is
 *    never recommended, however fast, because a faster server that drops requests is not faster.
 *    If such a setting would otherwise have won, the reason says so. Cancelled runs (the user
 *    stopped the sweep) are no verdict on the setting and are left out.
 * 1. Primary metric: GC ms per 1k requests (lower is better). It is normalised per request, so a
 *    closed-loop run that served more requests is not penalised for doing more work.
 * 2. A setting is "better" only if the exact two-sided Mann-Whitney U test against the baseline
 *    gives p < 0.05 AND its median is at least 3% lower (ratio ≤ 0.97): significant and worth it.
 * 3. Guard: its req/s must not be significantly worse than the baseline (p < 0.05 and over 3%).
 * 4. Memory is the bill: among the better settings, take the SMALLEST size whose GC ms/1k median
 *    is within 10% of the best one. A margin of 10% is about the run-to-run noise of a shared
 *    machine, while RSS keeps growing with the semi-space (3 × semi-space of young generation),
 *    so a bigger size must earn its memory. Larger sizes are then named with their RSS increase
 *    and whether they gave a significant further gain over the chosen one.
 * 5. Too few runs for a test (the smallest attainable p is ≥ 0.05: 3 vs 3 gives 0.10): nothing
 *    can be called significant. A tentative recommendation is still given for a big, plain
 *    effect: 3+ valid runs on each side, the GC ms/1k ranges do not overlap at all, the ratio is
 *    < 0.7 and the req/s median is not more than 3% lower (gc.md section 9: at 3 runs a 2× change
 *    is plainly visible though no test can certify it); the same smallest-within-10% choice
 *    applies, and the reason starts with "Tentative (N rounds, no test possible):". Otherwise:
 *    keep the default.
 * 6. Keep the default (semiSpaceMB null) whenever nothing passes, saying why: no detectable
 *    difference, too few rounds, req/s got worse, or the only winner lost requests.
 */
import { median } from '../util/stats';
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
import type { Recommendation, SweepSettingResult } from './sweepTypes';

/** Better than the baseline means at least 3% lower (ratio ≤ 0.97). */
const WIN_RATIO = 1 - PRACTICAL_THRESHOLD;
/** "As good as the best": a GC ms/1k median within 10% of the best one. */
const NEAR_BEST = 1.1;
/** A tentative (untested) recommendation needs a big effect: at least 30% less GC ms/1k. */
const TENTATIVE_RATIO = 0.7;
/** …seen in at least 3 valid runs on each side (a "range" of one or two runs says little). */
const TENTATIVE_MIN_RUNS = 3;

interface Candidate {
  result: SweepSettingResult;
  mb: number;
  /** Valid runs' GC ms per 1k requests. */
  gc: number[];
  gcMedian: number;
  gcRatio: number | null;
  gcP: number | null;
  /** Whether the U test could reach p < 0.05 at all with these sample sizes. */
  testable: boolean;
  rpsRatio: number | null;
  rpsP: number | null;
  rpsWorse: boolean;
  rssRatio: number | null;
  /** Why this setting may never be recommended (lost requests, invalid runs); null when eligible. */
  failure: string | null;
}

interface Choice {
  mode: 'significant' | 'tentative';
  chosen: Candidate;
  winners: Candidate[];
}

export function recommend(results: readonly SweepSettingResult[], baselineMB: number): Recommendation {
  const base = results.find((r) => r.semiSpaceMB === baselineMB);
  const baseSize = formatSize(baselineMB);
  const baseGc = base ? validMetricValues(base.runs, 'gcMsPer1k') : [];
  if (!base || baseGc.length === 0) {
    return {
      semiSpaceMB: null,
      reason: `Keep the default: the baseline (${baseSize}) has no valid run with GC figures, so there is nothing to compare against.`,
    };
  }
  const baseRps = validMetricValues(base.runs, 'rps');
  const baseRss = median(validMetricValues(base.runs, 'peakRssMB'));
  const baseRssOk = validMetricValues(base.runs, 'peakRssMB').length > 0;

  const candidates: Candidate[] = [];
  for (const result of results) {
    if (result === base || result.semiSpaceMB === baselineMB) continue;
    const gc = validMetricValues(result.runs, 'gcMsPer1k');
    if (gc.length === 0) continue;
    const gcCmp = compareSamples(gc, baseGc);
    const rps = validMetricValues(result.runs, 'rps');
    const rpsCmp = compareSamples(rps, baseRps);
    const rss = validMetricValues(result.runs, 'peakRssMB');
    candidates.push({
      result,
      mb: result.semiSpaceMB,
      gc,
      gcMedian: median(gc),
      gcRatio: gcCmp.ratio,
      gcP: gcCmp.p,
      testable: gcCmp.p !== null && minAttainableP(gc.length, baseGc.length) < ALPHA,
      rpsRatio: rpsCmp.ratio,
      rpsP: rpsCmp.p,
      rpsWorse: rpsCmp.significant && rpsCmp.ratio !== null && rpsCmp.ratio < 1,
      rssRatio: rss.length > 0 && baseRssOk ? ratio(median(rss), baseRss) : null,
      failure: failureOf(result),
    });
  }
  candidates.sort((a, b) => a.mb - b.mb);

  const eligible = candidates.filter((c) => c.failure === null);
  const pick = choose(eligible, baseGc);
  // The same choice with the validity rule waived: did a failing setting lose us the "win"?
  const unrestricted = choose(candidates, baseGc);
  const disqualified =
    unrestricted && unrestricted.chosen.failure !== null && unrestricted.chosen !== pick?.chosen
      ? `${formatSize(unrestricted.chosen.mb)} would otherwise have won (GC ms per 1k requests ${formatChange(unrestricted.chosen.gcRatio)}) but ${unrestricted.chosen.failure}: a setting that loses requests or runs is never recommended.`
      : null;

  if (pick) {
    const reason = [pickSentence(pick, candidates, baseGc, baseSize), disqualified].filter(Boolean).join(' ');
    return { semiSpaceMB: pick.chosen.mb, reason };
  }
  return { semiSpaceMB: null, reason: [keepSentence(eligible, candidates, baseGc, baseSize), disqualified].filter(Boolean).join(' ') };
}

/** Steps 2–5: significant winners first, else tentative ones; the smallest within 10% of the best. */
function choose(candidates: readonly Candidate[], baseGc: readonly number[]): Choice | null {
  const significant = candidates.filter(
    (c) => c.gcP !== null && c.gcP < ALPHA && c.gcRatio !== null && c.gcRatio <= WIN_RATIO && !c.rpsWorse,
  );
  if (significant.length > 0) return { mode: 'significant', chosen: smallestNearBest(significant), winners: significant };
  const baseMin = Math.min(...baseGc);
  const tentative = candidates.filter(
    (c) =>
      !c.testable &&
      c.gc.length >= TENTATIVE_MIN_RUNS &&
      baseGc.length >= TENTATIVE_MIN_RUNS &&
      Math.max(...c.gc) < baseMin &&
      c.gcRatio !== null &&
      c.gcRatio < TENTATIVE_RATIO &&
      (c.rpsRatio === null || c.rpsRatio >= WIN_RATIO),
  );
  if (tentative.length > 0) return { mode: 'tentative', chosen: smallestNearBest(tentative), winners: tentative };
  return null;
}

function smallestNearBest(winners: readonly Candidate[]): Candidate {
  const best = Math.min(...winners.map((c) => c.gcMedian));
  const near = winners.filter((c) => c.gcMedian <= best * NEAR_BEST).sort((a, b) => a.mb - b.mb);
  return near[0]!;
}

function pickSentence(pick: Choice, candidates: readonly Candidate[], baseGc: readonly number[], baseSize: string): string {
  const c = pick.chosen;
  const tentative = pick.mode === 'tentative';
  const rounds = Math.min(c.gc.length, baseGc.length);
  const gcPart = tentative
    ? `GC ms per 1k requests ${formatChange(c.gcRatio)} vs ${baseSize} (ranges do not overlap)`
    : `GC ms per 1k requests ${formatChange(c.gcRatio)} vs ${baseSize} (${formatP(c.gcP)})`;
  const rpsPart =
    c.rpsRatio === null
      ? 'req/s not measured'
      : tentative || c.rpsP === null
        ? `req/s ${formatChange(c.rpsRatio)} (untested)`
        : `req/s ${formatChange(c.rpsRatio)} (${formatP(c.rpsP)}${c.rpsP < ALPHA ? '' : ', within noise'})`;
  const rssPart = c.rssRatio === null ? 'RSS not measured' : `RSS ${formatChange(c.rssRatio)}`;
  let text = `${formatSize(c.mb)}: ${gcPart}, ${rpsPart}, ${rssPart}`;

  const larger = largerSizes(pick, candidates);
  if (larger) text += `; ${larger}`;
  text += '.';
  if (tentative) {
    text = `Tentative (${rounds} round${rounds === 1 ? '' : 's'}, no test possible): ${text} Run 4+ rounds to test it (6 for confidence intervals).`;
  }
  return text;
}

/** What the sizes above the chosen one would add: further gain or not, and their RSS bill. */
function largerSizes(pick: Choice, candidates: readonly Candidate[]): string {
  const chosen = pick.chosen;
  const noGain: Candidate[] = [];
  const gain: { c: Candidate; r: number | null; p: number | null }[] = [];
  const untested: Candidate[] = [];
  const worseRps: Candidate[] = [];
  const failed: Candidate[] = [];
  for (const c of candidates) {
    if (c.mb <= chosen.mb) continue;
    if (c.failure !== null) {
      failed.push(c);
      continue;
    }
    if (c.rpsWorse) {
      worseRps.push(c);
      continue;
    }
    const test = chosen.gc.length >= 2 && c.gc.length >= 2 ? mannWhitneyU(c.gc, chosen.gc) : null;
    const r = ratio(c.gcMedian, chosen.gcMedian);
    const testable = test !== null && minAttainableP(c.gc.length, chosen.gc.length) < ALPHA;
    if (!testable) untested.push(c);
    else if (test.p < ALPHA && r !== null && r <= WIN_RATIO) gain.push({ c, r, p: test.p });
    else noGain.push(c);
  }
  const parts: string[] = [];
  const rssList = (cs: readonly Candidate[]) => cs.map((c) => (c.rssRatio === null ? 'n/a' : formatChange(c.rssRatio))).join('/');
  if (noGain.length > 0) parts.push(`${formatSizes(noGain.map((c) => c.mb))}: no significant further gain, ${rssList(noGain)} RSS`);
  for (const g of gain) {
    parts.push(`${formatSize(g.c.mb)}: GC ms per 1k a further ${formatChange(g.r)} (${formatP(g.p)}) for ${rssList([g.c])} RSS`);
  }
  if (untested.length > 0) {
    const changes = untested.map((c) => formatChange(ratio(c.gcMedian, chosen.gcMedian))).join('/');
    parts.push(`${formatSizes(untested.map((c) => c.mb))}: GC ms per 1k ${changes} further (untested), ${rssList(untested)} RSS`);
  }
  if (worseRps.length > 0) {
    const list = worseRps.map((c) => `${formatChange(c.rpsRatio)} (${formatP(c.rpsP)})`).join('/');
    parts.push(`${formatSizes(worseRps.map((c) => c.mb))}: req/s ${list}, ruled out`);
  }
  if (failed.length > 0) parts.push(`${formatSizes(failed.map((c) => c.mb))}: lost requests or runs, never recommended`);
  return parts.join('; ');
}

function keepSentence(eligible: readonly Candidate[], all: readonly Candidate[], baseGc: readonly number[], baseSize: string): string {
  if (all.length === 0) return `Keep the default: no other setting has a valid run to compare with ${baseSize}.`;
  if (eligible.length === 0) return `Keep the default: every setting other than ${baseSize} lost requests or had invalid runs.`;
  // Significant GC winners that the req/s guard ruled out.
  const guarded = eligible.filter((c) => c.gcP !== null && c.gcP < ALPHA && c.gcRatio !== null && c.gcRatio <= WIN_RATIO && c.rpsWorse);
  if (guarded.length > 0) {
    const g = guarded.map(
      (c) => `${formatSize(c.mb)} cut GC ms per 1k requests ${formatChange(c.gcRatio)} (${formatP(c.gcP)}) but cost req/s ${formatChange(c.rpsRatio)} (${formatP(c.rpsP)})`,
    );
    return `Keep the default: ${g.join('; ')}; nothing else was significantly better than ${baseSize}.`;
  }
  const best = [...eligible].sort((a, b) => a.gcMedian - b.gcMedian)[0]!;
  const bestText = `best median: ${formatSize(best.mb)}, ${formatChange(best.gcRatio)}`;
  if (!eligible.some((c) => c.testable)) {
    const rounds = Math.min(baseGc.length, ...eligible.map((c) => c.gc.length));
    return (
      `Keep the default: ${rounds} round${rounds === 1 ? ' is' : 's are'} too few for a test (p cannot go below 0.05), and no setting's ` +
      `GC ms per 1k requests stood clear of ${baseSize} enough for a tentative call (3+ runs each, ranges apart, 30% or more; ${bestText}). ` +
      `Run 4+ rounds (6 for confidence intervals).`
    );
  }
  return (
    `Keep the default: no detectable difference; no setting has GC ms per 1k requests significantly lower than ${baseSize}'s ` +
    `(needs p < 0.05 and a change over 3%; ${bestText}${best.gcP !== null ? `, ${formatP(best.gcP)}` : ''}).`
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
