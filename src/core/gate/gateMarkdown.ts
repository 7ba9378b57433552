/** The gate's result as Markdown, for a CI job's summary ($GITHUB_STEP_SUMMARY) and the terminal. */
import { basename } from 'node:path';
import type { GateCheck, GateResult, GateValues } from './gateTypes';

const VERDICT_TEXT: Record<GateCheck['verdict'], string> = {
  pass: '✅ pass',
  broken: '❌ **broken**',
  noise: '〰️ noise',
  new: '🆕 new',
  'not-collected': '– not collected',
};

/** Markdown table cells hold text: pipes, backticks and markup in function names are escaped. */
function cell(text: string): string {
  return text.replace(/[\\`*_|<>[\]]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, ' ');
}

function fmt(value: number | null, unit: string): string {
  if (value === null) return '–';
  if (unit === 'share') return `${(value * 100).toFixed(1)}%`;
  if (unit === 'bytes') return value >= 1024 * 1024 ? `${(value / 1024 / 1024).toFixed(2)} MB` : value >= 1024 ? `${(value / 1024).toFixed(1)} KB` : `${value.toFixed(0)} B`;
  if (unit === 'req/s') return `${value.toLocaleString('en-US', { maximumFractionDigits: 0 })} req/s`;
  if (unit === 'count') return value.toFixed(2);
  return `${value.toLocaleString('en-US', { maximumFractionDigits: value < 10 ? 2 : 1 })} ${unit}`;
}

function figure(v: GateValues, unit: string): string {
  const shown = fmt(v.median, unit);
  const runs = v.values.filter((x) => x !== null).length;
  return runs > 1 ? `${shown} (median of ${runs})` : shown;
}

function changeText(c: GateCheck, relative: boolean): string {
  if (c.change === null) return '–';
  const sign = c.change > 0 ? '+' : c.change < 0 ? '−' : '±';
  return relative ? `${sign}${Math.abs(c.change * 100).toFixed(1)}%` : `${sign}${fmt(Math.abs(c.change), c.unit)}`;
}

function what(c: GateCheck): string {
  if (!c.function) return `\`${c.metric}\``;
  const where = c.function.url ? ` ${basename(c.function.url)}${c.function.line > 0 ? `:${c.function.line}` : ''}` : '';
  return `\`cpu.self\` ${cell(c.function.name)}${cell(where)}`;
}

export function formatGateMarkdown(result: GateResult): string {
  const title = result.verdict === 'fail' ? `❌ **FAIL**: ${result.broken} of ${result.checks.length} checks broken` : `✅ **PASS**: ${result.checks.length} checks, none broken`;
  const lines = [
    `### V8 Lens regression gate: ${title}`,
    '',
    `Baseline: ${cell(result.baseline.label)}, ${result.baseline.runs.length} run${result.baseline.runs.length === 1 ? '' : 's'} (${cell(result.baseline.path)}) · ` +
      `candidate: ${cell(result.candidate.label)}, ${result.candidate.runs.length} run${result.candidate.runs.length === 1 ? '' : 's'} (${cell(result.candidate.path)}). ` +
      `Rules: ${result.rules.map((r) => `\`${r}\``).join(', ')}. ${result.perRequest ? 'Figures per 1k requests where they depend on the load.' : 'Figures per run (not both under load).'}`,
    '',
    `Noise: ${cell(result.noise)}.`,
    '',
    '| Check | Baseline | Candidate | Change | Limit | Verdict | Why |',
    '|---|---:|---:|---:|---:|---|---|',
  ];
  // Broken first, then what came close; the passing rest keeps the rules' order.
  const order: Record<GateCheck['verdict'], number> = { broken: 0, noise: 1, new: 2, pass: 3, 'not-collected': 4 };
  const rows = [...result.checks].sort((x, y) => order[x.verdict] - order[y.verdict]);
  for (const c of rows) {
    const relative = c.rule.endsWith('%');
    lines.push(`| ${what(c)} | ${figure(c.baseline, c.unit)} | ${figure(c.candidate, c.unit)} | ${changeText(c, relative)} | ${c.rule.slice(c.rule.indexOf(':') + 1)} | ${VERDICT_TEXT[c.verdict]} | ${cell(c.why)} |`);
  }
  return `${lines.join('\n')}\n`;
}
