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
  /** A relative rule on a baseline of 0, held as absolute growth: `change` is in the unit. */
  heldAsAbsolute?: boolean;
}

export interface SamplingNoise {
  /** Relative standard deviation of one run's value from sampling alone (1/√samples, both sides combined). */
  relativeSd: number;
}

const present = (values: readonly (number | null)[]) => values.filter((v): v is number => v !== null && Number.isFinite(v));

/**
 * A change too large for a double (1e308 against 1e-308) is held as the largest one, never as
 * Infinity (which JSON cannot carry and a table cannot print).
 */
const bounded = (x: number) => (Number.isNaN(x) ? 0 : Math.max(-Number.MAX_VALUE, Math.min(Number.MAX_VALUE, x)));

export function judgeChange(rule: GateRule, baselineValues: readonly (number | null)[], candidateValues: readonly (number | null)[], sampling: SamplingNoise | null = null): Judgement {
  const a = present(baselineValues);
  const b = present(candidateValues);
  const baselineMedian = a.length > 0 ? median(a) : null;
  const candidateMedian = b.length > 0 ? median(b) : null;
  const base = { baselineMedian, candidateMedian, p: null };
  if (baselineMedian === null || candidateMedian === null) {
    const side = baselineMedian === null && candidateMedian === null ? 'either side' : baselineMedian === null ? 'the baseline' : 'the candidate';
    return { ...base, change: null, verdict: 'not-measured', why: `not measured in ${side}` };
  }
  let change: number;
  let limit = rule.limit;
  let absolute = false;
  if (rule.relative && baselineMedian === 0) {
    // No percentage of 0 is a limit: any change the bad way is beyond it, held as absolute growth.
    if (candidateMedian === 0) return { ...base, change: 0, verdict: 'pass', why: 'zero in both' };
    change = candidateMedian;
    limit = 0;
    absolute = true;
  } else {
    change = bounded(rule.relative ? candidateMedian / baselineMedian - 1 : candidateMedian - baselineMedian);
  }
  const zeroNote = absolute ? 'the baseline is 0, so the relative limit is held as absolute growth; ' : '';
  const judged = (j: Omit<Judgement, 'baselineMedian' | 'candidateMedian' | 'change'> & { p?: number | null }): Judgement => ({
    ...base,
    change,
    ...j,
    why: `${zeroNote}${j.why}`,
    ...(absolute ? { heldAsAbsolute: true } : {}),
  });
  const worse = rule.direction === 'up' ? change : -change;
  if (!(worse > limit)) return judged({ verdict: 'pass', why: 'within the limit', p: null });

  if (sampling && !absolute) {
    const relative = rule.relative ? Math.abs(change) : Math.abs(change) / Math.max(Math.abs(baselineMedian), 1e-12);
    if (relative < 2 * sampling.relativeSd) {
      return judged({ verdict: 'noise', why: `beyond the limit but inside V8's sampling noise (±${(200 * sampling.relativeSd).toFixed(0)}% at 2σ for this many samples)`, p: null });
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
      return judged({ p, verdict: 'broken', why: `beyond the limit: ${evidence}` });
    }
    const evidence = reachable ? `p = ${p.toFixed(2)} ≥ ${ALPHA}` : 'the ranges overlap';
    return judged({ p, verdict: 'noise', why: `beyond the limit but inside the run-to-run noise (${evidence})` });
  }
  const few = a.length === 1 && b.length === 1 ? 'one run per side' : `${a.length} vs ${b.length} runs (fewer than 3 a side)`;
  return judged({ verdict: 'broken', why: `beyond the limit; ${few}: no run-to-run noise estimate, so the limit is held against the measured change`, p: null });
}
