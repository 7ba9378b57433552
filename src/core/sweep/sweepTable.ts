/**
 * The plain-text sweep table the CLI prints (and tests read). Medians over valid runs, a spread
 * for the figures that carry the decision, and benchstat-style comparisons with the baseline:
 * the change of the median with its U-test p, or "~" when it is not significant.
 */
import { PRACTICAL_THRESHOLD, isValidRun, lostRequests } from './sweepStats';
import { formatChange, formatP, formatSize } from './recommend';
import type { Comparison, Spread, SweepResult, SweepSettingResult } from './sweepTypes';

export const SWEEP_TABLE_HEADERS = [
  'semi-space MB (effective)',
  'valid runs',
  'req/s median [spread]',
  'p50/p99 ms',
  'scavenges /1k req',
  'GC ms /1k req [spread]',
  'mean scavenge ms',
  'GC % wall',
  'GC % CPU',
  'peak RSS MB',
  'GC ms/1k vs base',
  'req/s vs base',
] as const;

/**
 * The plain-text table the CLI prints (and tests read): one row per setting: size (effective),
 * valid runs, req/s median [spread], p50/p99 ms, scavenges/1k req, GC ms/1k req, mean scavenge ms,
 * GC % wall, GC % CPU, peak RSS MB, and a ratio/p column vs baseline for GC ms/1k and req/s ("~"
 * when not significant, like benchstat). Then the recommendation line. Column headers say what
 * each counts.
 */
export function formatSweepTable(result: Pick<SweepResult, 'results' | 'recommendation' | 'warnings' | 'config'>): string {
  const results = result.results ?? [];
  const baselineMB = result.config?.sizesMB?.[0] ?? results[0]?.semiSpaceMB;
  const rows = results.map((r) => row(r, r.semiSpaceMB === baselineMB));
  const header = [...SWEEP_TABLE_HEADERS] as string[];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((cells) => cells[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();

  const out: string[] = [];
  out.push(line(header));
  out.push(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const cells of rows) out.push(line(cells));
  if (rows.length === 0) out.push('(no settings)');
  out.push('');
  out.push(
    'Medians of valid runs. [a..b]: 95% CI of the median with 6+ valid runs, else min..max. p50/p99: integer ms from the load generator. ' +
      'GC % wall: GC pause / window time; GC % CPU: GC pause / process CPU time (estimate). ' +
      `vs base: change of the median vs ${baselineMB === undefined ? 'the baseline' : formatSize(baselineMB)} with the exact Mann-Whitney U p; ` +
      `~ = not significant (p >= 0.05 or change <= ${Math.round(PRACTICAL_THRESHOLD * 100)}%).`,
  );
  if (results.some((r) => r.runs.some((run) => isValidRun(run) && lostRequests(run) > 0))) {
    out.push('* a run lost requests (errors, timeouts or non-2xx answers): counted in the figures, never recommended.');
  }
  out.push('');
  const rec = result.recommendation;
  if (rec) {
    out.push(
      rec.semiSpaceMB === null
        ? `Recommendation: ${rec.reason}`
        : `Recommendation: --max-semi-space-size=${rec.semiSpaceMB}. ${rec.reason}`,
    );
  }
  const warnings = result.warnings ?? [];
  if (warnings.length > 0) {
    out.push('');
    out.push('Warnings:');
    for (const w of warnings) out.push(`  - ${w}`);
  }
  return out.join('\n') + '\n';
}

function row(r: SweepSettingResult, isBaseline: boolean): string[] {
  const m = r.median;
  const eff = r.effectiveSemiSpaceMB;
  const size =
    eff !== null && Math.abs(eff - r.semiSpaceMB) > Math.max(0.5, 0.02 * r.semiSpaceMB)
      ? `${num(r.semiSpaceMB)} (eff. ${num(eff)})`
      : num(r.semiSpaceMB);
  const counted = r.runs.filter((run) => run.status !== 'cancelled').length;
  const lossy = r.runs.some((run) => isValidRun(run) && lostRequests(run) > 0);
  return [
    size,
    `${r.validRuns}/${counted}${lossy ? ' *' : ''}`,
    withSpread(m.rps, r.spread.rps, 0),
    m.p50Ms === null && m.p99Ms === null ? '-' : `${opt(m.p50Ms)}/${opt(m.p99Ms)}`,
    opt(m.scavengesPer1k),
    withSpread(m.gcMsPer1k, r.spread.gcMsPer1k),
    opt(m.meanScavengeMs),
    share(m.gcWallShare),
    share(m.gcCpuShare),
    opt(m.peakRssMB, 0),
    isBaseline ? 'baseline' : vs(r.vsBaseline.gcMsPer1k),
    isBaseline ? 'baseline' : vs(r.vsBaseline.rps),
  ];
}

function vs(c: Comparison | undefined): string {
  if (!c || c.ratio === null) return '-';
  if (c.p === null) return '~ (no test)';
  if (!c.significant) return `~ (${formatP(c.p)})`;
  return `${formatChange(c.ratio)} (${formatP(c.p)})`;
}

function withSpread(v: number | null, s: Spread | undefined, decimals?: number): string {
  if (v === null) return '-';
  if (!s || s.low === s.high) return num(v, decimals);
  return `${num(v, decimals)} [${num(s.low, decimals)}..${num(s.high, decimals)}]`;
}

function share(v: number | null): string {
  return v === null ? '-' : (v * 100).toFixed(1);
}

function opt(v: number | null, decimals?: number): string {
  return v === null ? '-' : num(v, decimals);
}

/** Fixed decimals when asked, else about three significant digits (3635, 36.9, 2.74, 0.742). */
function num(v: number, decimals?: number): string {
  if (decimals !== undefined) return v.toFixed(decimals);
  const a = Math.abs(v);
  const d = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
  return Number.isInteger(v) ? String(v) : v.toFixed(d);
}
