/** The regression gate's result: what `v8-lens compare --fail-on` prints as Markdown and as JSON. */
import type { GateMetricId } from './gateMetrics';

/**
 * - pass: within the limit;
 * - broken: beyond the limit, and beyond the noise (or no noise estimate: one run per side);
 * - noise: beyond the limit, but inside the noise: it does not fail the gate;
 * - new: a function sampled in the candidate only (new, renamed, or no longer inlined): shown, not failed;
 * - not-collected: a side has no such figure (no load, allocations not sampled…).
 */
export type GateVerdict = 'pass' | 'broken' | 'noise' | 'new' | 'not-collected';

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
}

export interface GateSide {
  path: string;
  runs: string[];
  /** What ran: "node app.js" (the first run's). */
  label: string;
}

export interface GateResult {
  verdict: 'pass' | 'fail';
  baseline: GateSide;
  candidate: GateSide;
  /** Per 1k requests (both sides under load) or per run. */
  perRequest: boolean;
  /** How noise was handled, one line. */
  noise: string;
  rules: string[];
  checks: GateCheck[];
  broken: number;
}
