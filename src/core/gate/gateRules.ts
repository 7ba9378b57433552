/**
 * `--fail-on "cpu.self:+10%,gc.msPer1k:+15%,load.rps:-5%"`: which change of which figure fails the
 * gate. The sign is the bad direction (+: a rise fails, −: a fall fails); `%` makes the limit
 * relative to the baseline, without it the limit is in the figure's own unit (ms, bytes, …).
 */
import { UserError } from '../util/errors';
import { EXIT } from '../util/exitCodes';
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

export function parseFailOn(spec: string): GateRule[] {
  const parts = spec.split(',').map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0) throw new UserError('--fail-on needs at least one rule, e.g. --fail-on "cpu.self:+10%"', EXIT.usage);
  const rules = parts.map((part) => {
    const m = /^([a-zA-Z0-9.]+)\s*:\s*([+-])\s*(\d+(?:\.\d+)?)\s*(%?)$/.exec(part);
    if (!m) throw new UserError(`--fail-on: '${part}' is not METRIC:+N% or METRIC:-N (e.g. cpu.self:+10%, load.rps:-5%)`, EXIT.usage);
    const [, metric, sign, number, percent] = m as unknown as [string, string, string, string, string];
    if (!isGateMetric(metric)) throw new UserError(`--fail-on: unknown figure '${metric}'; the figures are ${GATE_METRIC_IDS.join(', ')}`, EXIT.usage);
    const value = Number(number);
    return { metric, direction: sign === '+' ? 'up' : 'down', limit: percent ? value / 100 : value, relative: percent === '%', text: `${metric}:${sign}${number}${percent}` } satisfies GateRule;
  });
  const seen = new Set<string>();
  for (const r of rules) {
    if (seen.has(r.metric)) throw new UserError(`--fail-on: ${r.metric} is given twice`, EXIT.usage);
    seen.add(r.metric);
  }
  return rules;
}
