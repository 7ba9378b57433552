/** The gate's result as Markdown, for a CI job's summary ($GITHUB_STEP_SUMMARY) and the terminal. */
import { basename } from 'node:path';
import { clipText, escapeBidi } from '../util/terminalText';
import type { GateCheck, GateResult, GateValues } from './gateTypes';

const VERDICT_TEXT: Record<GateCheck['verdict'], string> = {
  pass: '✅ pass',
  broken: '❌ **broken**',
  noise: '〰️ noise',
  new: '🆕 new',
  'too-few-samples': '· too few samples',
  'not-measured': '⚠️ **not measured**',
};

/**
 * Markdown table cells hold text: pipes, backticks and markup in function names are escaped, the
 * bidirectional controls made visible, and a name from a file cut to a sane length.
 */
function cell(text: string, max = 160): string {
  return escapeBidi(clipText(text, max))
    .replace(/[\\`*_|<>[\]]/g, (c) => `\\${c}`)
    .replace(/[\r\n]+/g, ' ');
}

/**
 * A number in at most a dozen characters, whatever the file held: 1e308 prints as 1.00e+308, never
 * as 308 digits or Infinity.
 */
function num(value: number, digits: number): string {
  if (!Number.isFinite(value)) return value > 0 ? '> 1e+308' : value < 0 ? '< -1e+308' : '–';
  if (Math.abs(value) >= 1e9) return value.toExponential(2);
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

function fmt(value: number | null, unit: string): string {
  if (value === null) return '–';
  if (unit === 'share') return `${num(value * 100, 1)}%`;
  if (unit === 'bytes') return value >= 1024 * 1024 ? `${num(value / 1024 / 1024, 2)} MB` : value >= 1024 ? `${num(value / 1024, 1)} KB` : `${num(value, 0)} B`;
  if (unit === 'req/s') return `${num(value, 0)} req/s`;
  if (unit === 'count') return num(value, 2);
  return `${num(value, Math.abs(value) < 10 ? 2 : 1)} ${unit}`;
}

function figure(v: GateValues, unit: string): string {
  const shown = fmt(v.median, unit);
  const runs = v.values.filter((x) => x !== null).length;
  return runs > 1 ? `${shown} (median of ${runs})` : shown;
}

/** Beyond a million percent a change is shown as that: the figure itself is in its column. */
const MAX_PERCENT = 1e6;

function changeText(c: GateCheck, relative: boolean): string {
  if (c.change === null) return '–';
  const sign = c.change > 0 ? '+' : c.change < 0 ? '−' : '±';
  if (c.heldAsAbsolute) return `${sign}${fmt(Math.abs(c.change), c.unit)} (from 0)`;
  if (!relative) return `${sign}${fmt(Math.abs(c.change), c.unit)}`;
  const percent = Math.abs(c.change * 100);
  return percent >= MAX_PERCENT ? `${sign}> ${num(MAX_PERCENT, 0)}%` : `${sign}${percent.toFixed(1)}%`;
}

function what(c: GateCheck): string {
  if (!c.function) return `\`${c.metric}\``;
  const where = c.function.url ? ` ${basename(c.function.url)}${c.function.line > 0 ? `:${c.function.line}` : ''}` : '';
  return `\`cpu.self\` ${cell(c.function.name, 120)}${cell(where, 120)}`;
}

function title(result: GateResult): string {
  const checks = result.checks.length;
  const blind = result.unmeasured.length;
  if (result.verdict === 'not-measured') return `⚠️ **NOT MEASURED**: ${blind} rule${blind === 1 ? '' : 's'} measured nothing on a side`;
  if (result.verdict === 'fail') {
    const parts = [
      ...(result.broken > 0 ? [`${result.broken} of ${checks} checks broken`] : []),
      ...(blind > 0 && result.missing === 'fail' ? [`${blind} rule${blind === 1 ? '' : 's'} measured nothing on a side`] : []),
    ];
    return `❌ **FAIL**: ${parts.join('; ')}`;
  }
  return `✅ **PASS**: ${checks} checks, none broken`;
}

export function formatGateMarkdown(result: GateResult): string {
  const runs = (n: number) => `${n} run${n === 1 ? '' : 's'}`;
  const lines = [
    `### V8 Lens regression gate: ${title(result)}`,
    '',
    `Baseline: ${cell(result.baseline.label)}, ${runs(result.baseline.runs.length)} (${cell(result.baseline.path)}) · ` +
      `candidate: ${cell(result.candidate.label)}, ${runs(result.candidate.runs.length)} (${cell(result.candidate.path)}). ` +
      `Rules: ${result.rules.map((r) => `\`${r}\``).join(', ')}. ${result.perRequest ? 'Figures per 1k requests where they depend on the load.' : 'Figures per run (not both under load).'}`,
    '',
    `Noise: ${cell(result.noise, 1000)}.`,
  ];
  if (result.unmeasured.length > 0) {
    const consequence =
      result.missing === 'ignore'
        ? 'not held (--missing ignore): the gate did not check them'
        : result.missing === 'error'
          ? 'the gate cannot judge this change (--missing error)'
          : 'a gate that measured nothing cannot pass (--missing ignore to leave such rules out)';
    lines.push('', `Not measured: ${result.unmeasured.map((u) => cell(u, 300)).join('; ')}. So ${consequence}.`);
  }
  if (result.tooFewSamples > 0) {
    const n = result.tooFewSamples;
    lines.push('', `${n} function${n === 1 ? ' has' : 's have'} too few samples on both sides to tell a change (fewer than 20, or than 1% of the on-CPU samples where that is more): shown, not held.`);
  }
  if (result.accepted.length > 0) lines.push('', `Held anyway, as asked: ${result.accepted.map((a) => cell(a, 400)).join('; ')}.`);
  lines.push('', '| Check | Baseline | Candidate | Change | Limit | Verdict | Why |', '|---|---:|---:|---:|---:|---|---|');
  // Broken first, then what could not be measured, then what came close; the passing rest keeps the rules' order.
  const order: Record<GateCheck['verdict'], number> = { broken: 0, 'not-measured': 1, noise: 2, new: 3, pass: 4, 'too-few-samples': 5 };
  const rows = [...result.checks].sort((x, y) => order[x.verdict] - order[y.verdict]);
  for (const c of rows) {
    const relative = c.rule.endsWith('%');
    lines.push(`| ${what(c)} | ${figure(c.baseline, c.unit)} | ${figure(c.candidate, c.unit)} | ${changeText(c, relative)} | ${c.rule.slice(c.rule.indexOf(':') + 1)} | ${VERDICT_TEXT[c.verdict]} | ${cell(c.why, 400)} |`);
  }
  return `${lines.join('\n')}\n`;
}
