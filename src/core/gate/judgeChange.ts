/**
 * One figure, baseline runs against candidate runs, held to one rule, with the noise handled as
 * the Semi-space Lab handles it (sweep/sweepStats.ts): medians; with 3+ runs per side the
 * Mann-Whitney U test at p < 0.05, or, where the run counts cannot reach that p (3 vs 3: 0.1),
 * ranges that do not overlap; a change inside the noise never fails. With fewer runs (one per side,
 * or 2 vs 2, which separate by chance one time in three) there is no run-to-run noise estimate:
 * the limit is held against the measured change, and the row says so.
 * V8's sampling noise (a function's self time is a count of samples) is known even from one run.
 */
import { median } from '../util/stats';
import { ALPHA, mannWhitneyU, minAttainableP } from '../sweep/sweepStats';
import type { GateRule } from './gateRules';
import type { GateVerdict } from './gateTypes';

export interface Judgement {
  baselineMedian: number | null;
  candidateMedian: number | null;
  change: number | null;
  verdict: GateVerdict;
  why: string;
  p: number | null;
}

export interface SamplingNoise {
  /** Relative standard deviation of one run's value from sampling alone (1/√samples, both sides combined). */
  relativeSd: number;
}

const present = (values: readonly (number | null)[]) => values.filter((v): v is number => v !== null && Number.isFinite(v));

export function judgeChange(rule: GateRule, baselineValues: readonly (number | null)[], candidateValues: readonly (number | null)[], sampling: SamplingNoise | null = null): Judgement {
  const a = present(baselineValues);
  const b = present(candidateValues);
  const baselineMedian = a.length > 0 ? median(a) : null;
  const candidateMedian = b.length > 0 ? median(b) : null;
  const base = { baselineMedian, candidateMedian, p: null };
  if (baselineMedian === null || candidateMedian === null) {
    const side = baselineMedian === null && candidateMedian === null ? 'either run' : baselineMedian === null ? 'the baseline' : 'the candidate';
    return { ...base, change: null, verdict: 'not-collected', why: `not collected in ${side}` };
  }
  let change: number;
  if (rule.relative) {
    if (baselineMedian === 0) {
      if (candidateMedian === 0) return { ...base, change: 0, verdict: 'pass', why: 'zero in both' };
      return { ...base, change: null, verdict: 'new', why: 'zero in the baseline: no relative change to hold to the limit' };
    }
    change = candidateMedian / baselineMedian - 1;
  } else {
    change = candidateMedian - baselineMedian;
  }
  const worse = rule.direction === 'up' ? change : -change;
  if (!(worse > rule.limit)) return { ...base, change, verdict: 'pass', why: 'within the limit' };

  if (sampling) {
    const relative = rule.relative ? Math.abs(change) : Math.abs(change) / Math.max(Math.abs(baselineMedian), 1e-12);
    if (relative < 2 * sampling.relativeSd) {
      return { ...base, change, verdict: 'noise', why: `beyond the limit but inside V8's sampling noise (±${(200 * sampling.relativeSd).toFixed(0)}% at 2σ for this many samples)` };
    }
  }
  // Ranges that do not overlap are evidence from 3 runs a side (as in the lab); 2 vs 2 separate by chance one time in three.
  if (a.length >= 3 && b.length >= 3) {
    const test = mannWhitneyU(a, b);
    const p = test?.p ?? 1;
    const reachable = minAttainableP(a.length, b.length) < ALPHA;
    const separated = rule.direction === 'up' ? Math.min(...b) > Math.max(...a) : Math.max(...b) < Math.min(...a);
    if (reachable ? p < ALPHA : separated) {
      const evidence = reachable ? `Mann-Whitney U p = ${p.toFixed(3)} < ${ALPHA}` : `${a.length} vs ${b.length} runs cannot reach p < ${ALPHA} (p = ${p.toFixed(2)}), but the ranges do not overlap`;
      return { ...base, p, change, verdict: 'broken', why: `beyond the limit: ${evidence}` };
    }
    const evidence = reachable ? `p = ${p.toFixed(2)} ≥ ${ALPHA}` : 'the ranges overlap';
    return { ...base, p, change, verdict: 'noise', why: `beyond the limit but inside the run-to-run noise (${evidence})` };
  }
  const few = a.length === 1 && b.length === 1 ? 'one run per side' : `${a.length} vs ${b.length} runs (fewer than 3 a side)`;
  return { ...base, change, verdict: 'broken', why: `beyond the limit; ${few}: no run-to-run noise estimate, so the limit is held against the measured change` };
}
