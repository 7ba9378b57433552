/**
 * Exact U p-values against known values (benchstat's minimum attainable p: 3 vs 3 → 0.10, 4 vs 4 →
 * 2/70, 6 vs 6 → 2/924), ties against brute-force enumeration (and values computed independently
 * with scipy.stats.rankdata + itertools.combinations), the normal approximation against
 * scipy.stats.mannwhitneyu(method='asymptotic'), and the median CI by order statistics.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  compareSamples,
  mannWhitneyU,
  medianConfidenceInterval,
  minAttainableP,
  normalCdf,
  ratio,
  spreadOf,
} from '../../../src/core/sweep/sweepStats';

const close = (actual: number, expected: number, tol: number, what = '') =>
  assert.ok(Math.abs(actual - expected) <= tol, `${what} ${actual} vs ${expected} (±${tol})`);

/** Independent oracle: enumerate every split, U by pairwise counting (ties ½), two-sided by |U − nm/2|. */
function bruteForceP(x: number[], y: number[]): number {
  const pool = [...x, ...y];
  const n = x.length;
  const N = pool.length;
  const uOf = (a: number[], b: number[]) => {
    let u = 0;
    for (const p of a) for (const q of b) u += p > q ? 1 : p === q ? 0.5 : 0;
    return u;
  };
  const centre = (n * (N - n)) / 2;
  const observed = Math.abs(uOf(x, y) - centre);
  let extreme = 0;
  let total = 0;
  for (let mask = 0; mask < 1 << N; mask++) {
    let bits = 0;
    for (let i = 0; i < N; i++) if (mask & (1 << i)) bits++;
    if (bits !== n) continue;
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < N; i++) (mask & (1 << i) ? a : b).push(pool[i]!);
    total++;
    if (Math.abs(uOf(a, b) - centre) >= observed - 1e-9) extreme++;
  }
  return extreme / total;
}

describe('mannWhitneyU (exact)', () => {
  it('3 vs 3 fully separated → 0.1 (the smallest p at n = 3)', () => {
    const r = mannWhitneyU([11.4, 11.5, 11.6], [5.5, 5.57, 5.6])!;
    assert.equal(r.method, 'exact');
    close(r.p, 0.1, 1e-12);
    assert.equal(r.u, 9);
  });

  it('4 vs 4 fully separated → 2/70 = 0.0286', () => {
    const r = mannWhitneyU([1, 2, 3, 4], [5, 6, 7, 8])!;
    close(r.p, 2 / 70, 1e-12);
    assert.equal(r.p.toFixed(4), '0.0286');
    assert.equal(r.u, 0);
  });

  it('6 vs 6 fully separated → 2/924 = 0.0022', () => {
    const r = mannWhitneyU([36, 37, 38, 39, 40, 41], [18, 19, 19.5, 20, 21, 22])!;
    close(r.p, 2 / 924, 1e-12);
    assert.equal(r.p.toFixed(4), '0.0022');
  });

  it('identical samples → 1', () => {
    assert.equal(mannWhitneyU([5, 5, 5], [5, 5, 5])!.p, 1);
    assert.equal(mannWhitneyU([1, 2, 3, 4], [1, 2, 3, 4])!.p, 1);
  });

  it('handles ties exactly (values checked with scipy rankdata + full enumeration)', () => {
    close(mannWhitneyU([1, 2, 2, 3], [2, 3, 4, 4])!.p, 14 / 70, 1e-12);
    close(mannWhitneyU([10, 10, 11, 12, 12, 13], [12, 13, 13, 14, 15, 15])!.p, 20 / 924, 1e-12);
    assert.equal(mannWhitneyU([3, 3, 3], [3, 3, 4])!.p, 1);
  });

  it('agrees with brute-force enumeration on random small samples with ties', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let trial = 0; trial < 60; trial++) {
      const n = 1 + Math.floor(rand() * 6);
      const m = 1 + Math.floor(rand() * 6);
      const x = Array.from({ length: n }, () => Math.floor(rand() * 6));
      const y = Array.from({ length: m }, () => Math.floor(rand() * 6));
      close(mannWhitneyU(x, y)!.p, bruteForceP(x, y), 1e-12, `${x} vs ${y}`);
    }
  });

  it('is symmetric in its samples and null for an empty one', () => {
    const a = [3, 1, 4, 1, 5];
    const b = [9, 2, 6, 5, 3, 5];
    close(mannWhitneyU(a, b)!.p, mannWhitneyU(b, a)!.p, 1e-12);
    assert.equal(mannWhitneyU([], [1, 2]), null);
    assert.equal(mannWhitneyU([1, Number.NaN], []), null);
  });

  it('is exact up to 10 vs 10 (10 vs 10 separated → 2/C(20,10))', () => {
    const x = Array.from({ length: 10 }, (_, i) => i);
    const y = Array.from({ length: 10 }, (_, i) => i + 100);
    const r = mannWhitneyU(x, y)!;
    assert.equal(r.method, 'exact');
    close(r.p, 2 / 184756, 1e-15);
  });
});

describe('mannWhitneyU (normal approximation beyond 10)', () => {
  it('matches scipy asymptotic (continuity corrected) for 11 vs 11 separated', () => {
    const x = Array.from({ length: 11 }, (_, i) => i + 1);
    const y = Array.from({ length: 11 }, (_, i) => i + 12);
    const r = mannWhitneyU(x, y)!;
    assert.equal(r.method, 'normal');
    close(r.p, 8.151536127743244e-5, 1e-9);
  });

  it('matches scipy with ties (tie-corrected variance)', () => {
    const r = mannWhitneyU([1, 2, 2, 3, 5, 5, 5, 8, 9, 9, 10, 12], [2, 4, 5, 6, 7, 8, 9, 11, 12, 13, 13])!;
    assert.equal(r.u, 43.5);
    close(r.p, 0.17348658277400264, 1e-6);
  });

  it('gives 1 when every value is the same', () => {
    assert.equal(mannWhitneyU(new Array(12).fill(3), new Array(12).fill(3))!.p, 1);
  });
});

describe('minAttainableP', () => {
  it('is 0.10 at 3 vs 3, 0.029 at 4 vs 4, 0.0079 at 5 vs 5, 0.0022 at 6 vs 6', () => {
    close(minAttainableP(3, 3), 0.1, 1e-12);
    close(minAttainableP(4, 4), 0.0286, 1e-4);
    close(minAttainableP(5, 5), 0.0079, 1e-4);
    close(minAttainableP(6, 6), 0.0022, 1e-4);
    close(minAttainableP(3, 4), 2 / 35, 1e-12);
    assert.equal(minAttainableP(0, 4), 1);
  });
});

describe('medianConfidenceInterval', () => {
  it('n = 6: ranks 1 and 6 (min and max), coverage 1 − 2/64', () => {
    const ci = medianConfidenceInterval([5, 3, 9, 1, 7, 4])!;
    assert.equal(ci.lowRank, 1);
    assert.equal(ci.highRank, 6);
    assert.equal(ci.low, 1);
    assert.equal(ci.high, 9);
    close(ci.coverage, 1 - 2 / 64, 1e-12);
  });

  it('n = 10: ranks 2 and 9, coverage 1 − 2·11/1024', () => {
    const ci = medianConfidenceInterval([10, 1, 9, 2, 8, 3, 7, 4, 6, 5])!;
    assert.equal(ci.lowRank, 2);
    assert.equal(ci.highRank, 9);
    assert.equal(ci.low, 2);
    assert.equal(ci.high, 9);
    close(ci.coverage, 1 - (2 * 11) / 1024, 1e-12);
  });

  it('is null below n = 6 (even min..max covers less than 95%)', () => {
    assert.equal(medianConfidenceInterval([1, 2, 3, 4, 5]), null);
    assert.equal(medianConfidenceInterval([]), null);
  });

  it('grows inward with n (n = 20: ranks 6 and 15)', () => {
    const ci = medianConfidenceInterval(Array.from({ length: 20 }, (_, i) => i + 1))!;
    assert.deepEqual([ci.lowRank, ci.highRank], [6, 15]);
    assert.ok(ci.coverage >= 0.95);
  });
});

describe('spreadOf, ratio, compareSamples', () => {
  it('uses the CI from 6 values, else the range', () => {
    assert.deepEqual(spreadOf([3, 1, 2]), { low: 1, high: 3, kind: 'range' });
    assert.deepEqual(spreadOf([1, 2, 3, 4, 5, 6]), { low: 1, high: 6, kind: 'ci95' });
    assert.equal(spreadOf([]), null);
  });

  it('ratio: 1 for 0/0, null for x/0 and missing values', () => {
    assert.equal(ratio(19.1, 38.2), 0.5);
    assert.equal(ratio(0, 0), 1);
    assert.equal(ratio(1, 0), null);
    assert.equal(ratio(null, 1), null);
  });

  it('significant needs p < 0.05 and more than 3% change; p null below 2 values', () => {
    const big = compareSamples([18, 19, 20, 21], [36, 37, 38, 39]);
    assert.equal(big.significant, true);
    close(big.ratio!, 19.5 / 37.5, 1e-12);
    close(big.p!, 2 / 70, 1e-12);
    // Significant by rank but a 1% change: not worth calling.
    const tiny = compareSamples([100, 100.1, 100.2, 100.3], [101, 101.1, 101.2, 101.3]);
    assert.ok(tiny.p! < 0.05);
    assert.equal(tiny.significant, false);
    const few = compareSamples([1], [2, 3]);
    assert.equal(few.p, null);
    assert.equal(few.significant, false);
    assert.equal(few.ratio, 0.4);
  });

  it('normalCdf', () => {
    close(normalCdf(0), 0.5, 1e-7);
    close(normalCdf(1.959964), 0.975, 1e-6);
    close(normalCdf(-3), 0.0013499, 1e-6);
  });
});
