/**
 * `--fail-on "cpu.self:+10%,gc.msPer1k:+15%,load.rps:-5%"`: which change of which figure fails the
 * gate. The sign is the bad direction (+: a rise fails, −: a fall fails); `%` makes the limit
 * relative to the baseline, without it the limit is in the figure's own unit (ms, bytes, …).
 */
import { UserError } from '../util/errors';
import { EXIT } from '../util/exitCodes';
import { clipText } from '../util/terminalText';
import { GATE_METRIC_IDS, isGateMetric, type GateMetricId } from './gateMetrics';

export interface GateRule {
  metric: GateMetricId;
  /** Which way is worse. */
  direction: 'up' | 'down';
  /** The largest change that passes: a fraction (0.1 = 10%) when relative, else in the metric's unit. */
  limit: number;
  relative: boolean;
  /** As written, for the output. */
  text: string;
}

/**
 * One or more `--fail-on` lists (the option may be repeated: the rules add up). A figure given twice,
 * in one list or across them, is an error: which of its limits would hold?
 */
export function parseFailOn(specs: string | readonly string[]): GateRule[] {
  const list = typeof specs === 'string' ? [specs] : specs;
  const parts = list.flatMap((spec) => spec.split(',')).map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0) throw new UserError('--fail-on needs at least one rule, e.g. --fail-on "cpu.self:+10%"', EXIT.usage);
  const rules = parts.map((part) => {
    const m = /^([a-zA-Z0-9.]+)\s*:\s*([+-])\s*(\d+(?:\.\d+)?)\s*(%?)$/.exec(part);
    if (!m) throw new UserError(`--fail-on: '${clipText(part, 80)}' is not METRIC:+N% or METRIC:-N (e.g. cpu.self:+10%, load.rps:-5%)`, EXIT.usage);
    const [, metric, sign, number, percent] = m as unknown as [string, string, string, string, string];
    if (!isGateMetric(metric)) throw new UserError(`--fail-on: unknown figure '${clipText(metric, 80)}'; the figures are ${GATE_METRIC_IDS.join(', ')}`, EXIT.usage);
    const value = Number(number);
    if (!Number.isFinite(value)) throw new UserError(`--fail-on: '${clipText(part, 80)}' has no usable limit`, EXIT.usage);
    return { metric, direction: sign === '+' ? 'up' : 'down', limit: percent ? value / 100 : value, relative: percent === '%', text: `${metric}:${sign}${clipText(number, 20)}${percent}` } satisfies GateRule;
  });
  const seen = new Map<string, string>();
  for (const r of rules) {
    const first = seen.get(r.metric);
    if (first !== undefined) throw new UserError(`--fail-on: ${r.metric} is given twice (${first} and ${r.text}); give each figure once`, EXIT.usage);
    seen.set(r.metric, r.text);
  }
  return rules;
}
