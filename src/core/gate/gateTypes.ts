/** The regression gate's result: what `v8-lens compare --fail-on` prints as Markdown and as JSON. */
import type { GateMetricId } from './gateMetrics';

/**
 * - pass: within the limit;
 * - broken: beyond the limit, and beyond the noise (or no noise estimate: one run per side);
 * - noise: beyond the limit, but inside the noise: it does not fail the gate;
 * - new: a function sampled in the candidate only (new, renamed, or no longer inlined): shown, not failed;
 * - too-few-samples: a function with too few samples on both sides for any change to be told from
 *   V8's sampling noise: shown, not held;
 * - not-measured: a side has no such figure (no load, allocations not sampled, no CPU profile…):
 *   the gate cannot hold the rule, and says so (`GateResult.unmeasured`, `--missing`).
 */
export type GateVerdict = 'pass' | 'broken' | 'noise' | 'new' | 'too-few-samples' | 'not-measured';

export interface GateValues {
  /** One per run; null where that run did not collect it. */
  values: (number | null)[];
  median: number | null;
}

export interface GateCheck {
  metric: GateMetricId;
  /** The rule as written: "cpu.self:+10%". */
  rule: string;
  /** cpu.self: the function this row is about (1-based line). */
  function?: { name: string; url: string; line: number };
  unit: string;
  baseline: GateValues;
  candidate: GateValues;
  /** Candidate − baseline as the rule measures it (a fraction for % rules, else in the unit); null when not comparable. */
  change: number | null;
  verdict: GateVerdict;
  /** One line: why this verdict (the test, the p, the noise). */
  why: string;
  /** The Mann-Whitney U p when both sides had two or more runs. */
  p: number | null;
  /**
   * A relative rule whose baseline is 0: no percentage of 0 is a limit, so the change is held as
   * absolute growth (`change` is then in the unit, not a fraction).
   */
  heldAsAbsolute?: boolean;
}

export interface GateSide {
  path: string;
  runs: string[];
  /** What ran: "node app.js" (the first run's). */
  label: string;
}

/** What the gate does with a rule that measured nothing on a side (`--missing`). */
export type MissingPolicy = 'fail' | 'error' | 'ignore';

export interface GateResult {
  /**
   * pass; fail (a rule broken, or one that measured nothing with `--missing fail`: exit 1);
   * not-measured (a rule measured nothing, with `--missing error`: exit 2).
   */
  verdict: 'pass' | 'fail' | 'not-measured';
  baseline: GateSide;
  candidate: GateSide;
  /** Per 1k requests (both sides under load) or per run. */
  perRequest: boolean;
  /** How noise was handled, one line. */
  noise: string;
  rules: string[];
  checks: GateCheck[];
  broken: number;
  missing: MissingPolicy;
  /** One line per rule that measured nothing on a side: "gc.msPer1k: not measured in the candidate (…)". */
  unmeasured: string[];
  /** Functions shown but not held: too few samples on both sides (see GATE_SAMPLE_FLOOR). */
  tooFewSamples: number;
  /** Runs that would have been refused but were asked for (`--allow-failed`, `--allow-mixed`), one line each. */
  accepted: string[];
}
