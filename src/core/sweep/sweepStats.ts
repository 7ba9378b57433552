/**
 * Statistics for a semi-space sweep (gc.md section 9): few samples, non-normal, a noisy shared
 * machine. So, like benchstat: medians with a distribution-free confidence interval from order
 * statistics, the Mann-Whitney U test (exact for small samples, ties handled) and the ratio of
 * medians as the effect size. Pure functions; all accept unsorted input.
 */
import { median } from '../util/stats';
import type { Comparison, Spread, SweepMedians, SweepRun } from '../../shared/model/sweep';

/** Below this p a difference is called significant (two-sided). */
export const ALPHA = 0.05;
/** The practical threshold: a change of 3% or less is not worth reporting, whatever the p. */
export const PRACTICAL_THRESHOLD = 0.03;
/** Both samples at most this large: the exact U distribution; larger: the normal approximation. */
export const EXACT_U_MAX = 10;

// ---------------------------------------------------------------------------------------------
// Median confidence interval by order statistics
// ---------------------------------------------------------------------------------------------

export interface MedianInterval {
  low: number;
  high: number;
  /** 1-based ranks of `low` and `high` in the sorted sample. */
  lowRank: number;
  highRank: number;
  /** The exact coverage of [x(lowRank), x(highRank)] for a continuous distribution (≥ the asked level). */
  coverage: number;
}

/**
 * Distribution-free CI of the median: [x(k), x(n−k+1)] covers the true median with probability
 * 1 − 2·P(B ≤ k−1), B ~ Binomial(n, ½) (the number of observations below the median). k is the
 * largest rank that keeps the coverage ≥ `confidence`. null when even [min, max] is not enough:
 * coverage 1 − 2·½ⁿ ≥ 95% needs n ≥ 6 (n = 6 → ranks 1 and 6, 96.9%; n = 10 → ranks 2 and 9, 97.9%).
 */
export function medianConfidenceInterval(values: readonly number[], confidence = 0.95): MedianInterval | null {
  const sorted = finite(values).sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return null;
  const tail = (1 - confidence) / 2;
  // cdf[j] = P(B ≤ j); k − 1 is the largest j with P(B ≤ j) ≤ tail.
  let k = 0;
  if (n <= 1000) {
    let pmf = 0.5 ** n;
    let cdf = 0;
    for (let j = 0; j < n; j++) {
      cdf += pmf;
      if (cdf > tail) break;
      k = j + 1;
      pmf = (pmf * (n - j)) / (j + 1);
    }
  } else {
    // Normal approximation to the binomial, far beyond any sweep.
    k = Math.max(0, Math.floor((n - normalQuantile(1 - tail) * Math.sqrt(n)) / 2));
  }
  if (k < 1) return null;
  return {
    low: sorted[k - 1]!,
    high: sorted[n - k]!,
    lowRank: k,
    highRank: n - k + 1,
    coverage: 1 - 2 * binomialHalfCdf(n, k - 1),
  };
}

/** P(B ≤ j) for B ~ Binomial(n, ½). */
function binomialHalfCdf(n: number, j: number): number {
  if (j < 0) return 0;
  if (n > 1000) return normalCdf((j + 0.5 - n / 2) / (Math.sqrt(n) / 2));
  let pmf = 0.5 ** n;
  let cdf = 0;
  for (let i = 0; i <= j && i <= n; i++) {
    cdf += pmf;
    pmf = (pmf * (n - i)) / (i + 1);
  }
  return Math.min(1, cdf);
}

/** The sweep's spread: the 95% median CI when it exists (n ≥ 6), else the range; null for no values. */
export function spreadOf(values: readonly number[]): Spread | null {
  const v = finite(values);
  if (v.length === 0) return null;
  const ci = medianConfidenceInterval(v, 0.95);
  if (ci) return { low: ci.low, high: ci.high, kind: 'ci95' };
  return { low: Math.min(...v), high: Math.max(...v), kind: 'range' };
}

// ---------------------------------------------------------------------------------------------
// Mann-Whitney U
// ---------------------------------------------------------------------------------------------

export interface MannWhitneyResult {
  /** U of the first sample: the number of (x, y) pairs with x > y, ties counting ½. */
  u: number;
  /** Two-sided p-value. */
  p: number;
  method: 'exact' | 'normal';
}

/**
 * Two-sided Mann-Whitney U test (Wilcoxon rank-sum). null when either sample has no values
 * (callers wanting "≥ 2 each" check that themselves).
 *
 * Exact when both samples have ≤ 10 values: the permutation distribution of the first sample's
 * rank sum, with mid-ranks for ties, is counted by recursion over the pooled values (how many
 * subsets of size n reach each rank sum). The doubled mid-ranks are integers, so the counting is
 * exact. p = P(|W − E W| ≥ |w − E W|); the mid-rank vector is symmetric, so this equals
 * 2·min(P(W ≤ w), P(W ≥ w)). Known values: 3 vs 3 fully separated → 2/20 = 0.1, 4 vs 4 → 2/70,
 * 6 vs 6 → 2/924; identical samples → 1.
 *
 * Larger: the normal approximation with tie correction and continuity correction
 * (σ² = nm/12 · (N + 1 − Σ(t³ − t)/(N(N − 1)))).
 */
export function mannWhitneyU(x: readonly number[], y: readonly number[]): MannWhitneyResult | null {
  const a = finite(x);
  const b = finite(y);
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return null;
  const N = n + m;
  const pooled = [...a.map((v) => ({ v, first: true })), ...b.map((v) => ({ v, first: false }))].sort((p, q) => p.v - q.v);
  // Doubled mid-ranks (integers): a tie group over sorted positions i..j (0-based) gets i + j + 2.
  const ranks2 = new Array<number>(N);
  const tieSizes: number[] = [];
  for (let i = 0; i < N; ) {
    let j = i;
    while (j + 1 < N && pooled[j + 1]!.v === pooled[i]!.v) j++;
    for (let k = i; k <= j; k++) ranks2[k] = i + j + 2;
    tieSizes.push(j - i + 1);
    i = j + 1;
  }
  let w2 = 0;
  for (let k = 0; k < N; k++) if (pooled[k]!.first) w2 += ranks2[k]!;
  const u = w2 / 2 - (n * (n + 1)) / 2;

  if (n <= EXACT_U_MAX && m <= EXACT_U_MAX) {
    const mean2 = n * (N + 1); // E[2W]
    const observed = Math.abs(w2 - mean2);
    const counts = rankSumCounts(ranks2, n);
    let total = 0;
    let extreme = 0;
    counts.forEach((c, s) => {
      total += c;
      if (Math.abs(s - mean2) >= observed) extreme += c;
    });
    return { u, p: Math.min(1, extreme / total), method: 'exact' };
  }

  const tieTerm = tieSizes.reduce((s, t) => s + (t * t * t - t), 0);
  const variance = ((n * m) / 12) * (N + 1 - tieTerm / (N * (N - 1)));
  if (!(variance > 0)) return { u, p: 1, method: 'normal' };
  const z = Math.max(0, Math.abs(u - (n * m) / 2) - 0.5) / Math.sqrt(variance);
  return { u, p: Math.min(1, erfc(z / Math.SQRT2)), method: 'normal' };
}

/**
 * counts[s] = how many size-`n` subsets of the pooled values have doubled rank sum s.
 * Dynamic programming over the values: table[k][s] for subsets of size k so far.
 */
function rankSumCounts(ranks2: readonly number[], n: number): number[] {
  const maxSum = ranks2.reduce((s, r) => s + r, 0);
  let table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(maxSum + 1).fill(0));
  table[0]![0] = 1;
  for (const r of ranks2) {
    const next = table.map((row) => row.slice());
    for (let k = 0; k < n; k++) {
      const row = table[k]!;
      const up = next[k + 1]!;
      for (let s = 0; s + r <= maxSum; s++) if (row[s]! !== 0) up[s + r]! += row[s]!;
    }
    table = next;
  }
  return table[n]!;
}

/**
 * The smallest two-sided p the U test can give for samples of n and m (no ties): 2 / C(n+m, n).
 * At 3 vs 3 it is 0.1, so no test can reach p < 0.05 there; 4 vs 4 → 0.029.
 */
export function minAttainableP(n: number, m: number): number {
  if (n < 1 || m < 1) return 1;
  let c = 1;
  for (let i = 1; i <= Math.min(n, m); i++) c = (c * (n + m - Math.min(n, m) + i)) / i;
  return Math.min(1, 2 / c);
}

// ---------------------------------------------------------------------------------------------
// Ratios and comparisons
// ---------------------------------------------------------------------------------------------

/** a / b; 1 when both are 0 (nothing changed); null when b is 0 alone or either is missing. */
export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a == null || b == null || !Number.isFinite(a) || !Number.isFinite(b)) return null;
  if (b === 0) return a === 0 ? 1 : null;
  return a / b;
}

/**
 * One metric of a setting against the baseline: ratio of medians, exact U p (null when either
 * side has < 2 values), significant when p < 0.05 and the change exceeds 3%.
 */
export function compareSamples(values: readonly number[], baseline: readonly number[]): Comparison {
  const a = finite(values);
  const b = finite(baseline);
  const r = a.length > 0 && b.length > 0 ? ratio(median(a), median(b)) : null;
  const test = a.length >= 2 && b.length >= 2 ? mannWhitneyU(a, b) : null;
  const p = test ? test.p : null;
  return {
    ratio: r,
    p,
    significant: p !== null && r !== null && p < ALPHA && Math.abs(r - 1) > PRACTICAL_THRESHOLD,
  };
}

// ---------------------------------------------------------------------------------------------
// Per-run metrics
// ---------------------------------------------------------------------------------------------

export type SweepMetric = keyof SweepMedians;

export const SWEEP_METRICS: readonly SweepMetric[] = [
  'rps',
  'p50Ms',
  'p99Ms',
  'scavengesPer1k',
  'gcMsPer1k',
  'meanScavengeMs',
  'p95ScavengeMs',
  'gcWallShare',
  'gcCpuShare',
  'peakRssMB',
  'markCompactsPer1k',
  'markCompactMsPer1k',
  'failedRequests',
  'allocBytesPerRequest',
];

/** One metric of one run; null when the run did not measure it. */
export function runMetric(run: SweepRun, metric: SweepMetric): number | null {
  let v: number | null | undefined;
  switch (metric) {
    case 'rps':
      v = run.load?.rps;
      break;
    case 'p50Ms':
      v = run.load?.p50Ms;
      break;
    case 'p99Ms':
      v = run.load?.p99Ms;
      break;
    case 'meanScavengeMs':
      v = run.gc?.meanScavengeMs;
      break;
    case 'p95ScavengeMs':
      v = run.gc?.p95ScavengeMs;
      break;
    // Runs from a sweep.json written before these fields: derived from the window's figures.
    case 'markCompactsPer1k':
      v = run.markCompactsPer1k !== undefined ? run.markCompactsPer1k : per1k(run.gc?.markCompacts, run.load?.requests);
      break;
    case 'markCompactMsPer1k':
      v = run.markCompactMsPer1k !== undefined ? run.markCompactMsPer1k : per1k(run.gc?.markCompactMs, run.load?.requests);
      break;
    case 'failedRequests':
      v = run.failedRequests !== undefined ? run.failedRequests : run.load ? lostRequests(run) : null;
      break;
    default:
      v = run[metric];
  }
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** A valid run is one whose status is 'ok': the only runs that count in medians and tests. */
export function isValidRun(run: SweepRun): boolean {
  return run.status === 'ok';
}

function per1k(count: number | undefined, requests: number | undefined): number | null {
  if (typeof count !== 'number' || typeof requests !== 'number' || !(requests > 0)) return null;
  return Math.round((count / requests) * 1000 * 1e4) / 1e4;
}

/**
 * The values a setting's median, spread and comparison use: the valid runs' for every metric but
 * `failedRequests`, which counts every run that has load figures (cancelled ones left out): a run
 * that loses requests is invalid, so over the valid runs it would always be 0.
 */
export function settingMetricValues(runs: readonly SweepRun[], metric: SweepMetric): number[] {
  if (metric !== 'failedRequests') return validMetricValues(runs, metric);
  const out: number[] = [];
  for (const run of runs) {
    if (run.status === 'cancelled') continue;
    const v = runMetric(run, metric);
    if (v !== null) out.push(v);
  }
  return out;
}

/** The metric's values over the valid runs that measured it. */
export function validMetricValues(runs: readonly SweepRun[], metric: SweepMetric): number[] {
  const out: number[] = [];
  for (const run of runs) {
    if (!isValidRun(run)) continue;
    const v = runMetric(run, metric);
    if (v !== null) out.push(v);
  }
  return out;
}

/** Requests a run lost (errors + timeouts + non-2xx answers); 0 without load figures. */
export function lostRequests(run: SweepRun): number {
  const l = run.load;
  if (!l) return 0;
  const n = (x: number) => (Number.isFinite(x) && x > 0 ? x : 0);
  return n(l.errors) + n(l.timeouts) + n(l.non2xx);
}

// ---------------------------------------------------------------------------------------------
// Normal distribution
// ---------------------------------------------------------------------------------------------

/** Standard normal CDF via erfc (relative error < 1.2e-7: plenty for p-values). */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z / Math.SQRT2);
}

function erfc(x: number): number {
  // Numerical Recipes' Chebyshev fit of erfc (fractional error < 1.2e-7 everywhere).
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** Inverse of normalCdf by bisection (only used for huge samples). */
function normalQuantile(p: number): number {
  let lo = -10;
  let hi = 10;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (normalCdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

function finite(values: readonly number[]): number[] {
  return values.filter((v) => typeof v === 'number' && Number.isFinite(v));
}
