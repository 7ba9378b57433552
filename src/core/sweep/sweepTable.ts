/**
 * The plain-text sweep table the CLI prints (and tests read). Medians over valid runs, a spread
 * for the figures that carry the decision, and benchstat-style comparisons with the baseline:
 * the change of the median with its U-test p, or "~" when it is not significant.
 */
import { PRACTICAL_THRESHOLD, isValidRun, lostRequests } from './sweepStats';
import { formatChange, formatP } from './recommend';
import { fmtBytes } from '../../shared/formatBytes';
import { profilingGcCpuCell } from '../../shared/gcCpuText';
import { labSurvivorsCell } from '../../shared/survivorsText';
import { formatSetting, formatValueWithUnit, isOldSpaceFlag, sweepFlagInfo } from '../../shared/sweepFlags';
import { SEMI_SPACE_FLAG, recommendedValue, runPurpose, settingValue, sweepFlag, sweepValues, type Comparison, type Spread, type SweepResult, type SweepSettingResult } from '../../shared/model/sweep';

/** The columns of a semi-space sweep without lost requests (the table as it always was). */
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

interface Column {
  header: string;
  cell(r: SweepSettingResult, isBaseline: boolean): string;
}

type TableInput = Pick<SweepResult, 'results' | 'recommendation' | 'warnings' | 'config'>;

/**
 * The columns for this sweep. Every sweep: the setting, valid runs, req/s, p50/p99, GC % wall and
 * CPU, peak RSS, and the change vs the baseline of the primary metric and of req/s. A young-
 * generation or unknown flag adds scavenges and GC ms per 1k requests and the mean scavenge (as
 * the semi-space table always had); an old-space flag adds Mark-Compacts and Mark-Compact ms per
 * 1k requests with peak RSS next to them, then GC ms per 1k. "failed req" (errors + timeouts +
 * non-2xx over all the setting's runs) is there for an old-space flag, and for any flag as soon
 * as one run lost a request.
 */
function columns(result: TableInput): Column[] {
  const flag = sweepFlag(result.config);
  const info = sweepFlagInfo(flag);
  const old = isOldSpaceFlag(flag);
  const results = result.results ?? [];
  const anyFailed = results.some((r) => failedOf(r) > 0);
  const lossyMark = (r: SweepSettingResult) => (r.runs.some((run) => isValidRun(run) && lostRequests(run) > 0) ? ' *' : '');

  const setting: Column =
    flag === SEMI_SPACE_FLAG
      ? {
          header: 'semi-space MB (effective)',
          cell: (r) => {
            const value = settingValue(r);
            const eff = r.effectiveSemiSpaceMB;
            return eff !== null && Math.abs(eff - value) > Math.max(0.5, 0.02 * value) ? `${num(value)} (eff. ${num(eff)})` : num(value);
          },
        }
      : { header: `--${flag}${info.unit ? ` ${info.unit}` : ''}`, cell: (r) => (info.onOff ? formatValueWithUnit(flag, settingValue(r)) : num(settingValue(r))) };
  const valid: Column = {
    header: 'valid runs',
    // Of the measured runs: the profiling and survivors runs are in no figure of the comparison.
    cell: (r) => `${r.validRuns}/${r.runs.filter((run) => run.status !== 'cancelled' && runPurpose(run) === 'measure').length}${lossyMark(r)}`,
  };
  const failed: Column = { header: 'failed req', cell: (r) => String(failedOf(r)) };
  const rps: Column = { header: 'req/s median [spread]', cell: (r) => withSpread(r.median.rps, r.spread.rps, 0) };
  const latency: Column = {
    header: 'p50/p99 ms',
    cell: (r) => (r.median.p50Ms === null && r.median.p99Ms === null ? '-' : `${opt(r.median.p50Ms)}/${opt(r.median.p99Ms)}`),
  };
  const scavenges: Column = { header: 'scavenges /1k req', cell: (r) => opt(r.median.scavengesPer1k) };
  const gcMs: Column = { header: old ? 'GC ms /1k req' : 'GC ms /1k req [spread]', cell: (r) => (old ? opt(r.median.gcMsPer1k) : withSpread(r.median.gcMsPer1k, r.spread.gcMsPer1k)) };
  const meanScavenge: Column = { header: 'mean scavenge ms', cell: (r) => opt(r.median.meanScavengeMs) };
  const effective: Column = { header: 'semi-space MB reached', cell: (r) => opt(r.effectiveSemiSpaceMB) };
  const markCompacts: Column = { header: 'Mark-Compacts /1k req', cell: (r) => opt(r.median.markCompactsPer1k ?? null) };
  const markCompactMs: Column = {
    header: 'MC ms /1k req [spread]',
    cell: (r) => withSpread(r.median.markCompactMsPer1k ?? null, r.spread.markCompactMsPer1k),
  };
  const wall: Column = { header: 'GC % wall', cell: (r) => share(r.median.gcWallShare) };
  const cpu: Column = { header: 'GC % CPU', cell: (r) => share(r.median.gcCpuShare) };
  const rss: Column = { header: 'peak RSS MB', cell: (r) => opt(r.median.peakRssMB, 0) };
  const primaryVs: Column = {
    header: old ? 'MC ms/1k vs base' : 'GC ms/1k vs base',
    cell: (r, isBaseline) => (isBaseline ? 'baseline' : vs(old ? r.vsBaseline.markCompactMsPer1k : r.vsBaseline.gcMsPer1k)),
  };
  const rpsVs: Column = { header: 'req/s vs base', cell: (r, isBaseline) => (isBaseline ? 'baseline' : vs(r.vsBaseline.rps)) };
  // The code's figure: the same at every setting (summarizeSweep warns when it is not). Sweeps
  // written before it was measured do not have the column.
  const allocMeasured = results.some((r) => typeof r.median.allocBytesPerRequest === 'number');
  const alloc: Column = { header: 'alloc /req', cell: (r) => (typeof r.median.allocBytesPerRequest === 'number' ? fmtBytes(r.median.allocBytesPerRequest) : '-') };
  const allocColumn = allocMeasured ? [alloc] : [];
  // The profiling run's GC CPU: the main thread's pause and V8's helper threads' GC time per 1k.
  // The survivors run's bytes per request that outlived a young GC, of what the profiling run allocated.
  const survivorsColumn: Column[] = results.some((r) => labSurvivorsCell(r.runs) !== null) ? [{ header: 'survived /req (of alloc)', cell: (r) => labSurvivorsCell(r.runs) ?? '-' }] : [];
  const gcCpuColumn: Column[] = results.some((r) => profilingGcCpuCell(r.runs) !== null) ? [{ header: 'GC CPU ms/1k main + helpers (profiling run)', cell: (r) => profilingGcCpuCell(r.runs) ?? '-' }] : [];

  if (old) return [setting, valid, failed, rps, latency, markCompacts, markCompactMs, rss, gcMs, wall, cpu, ...allocColumn, primaryVs, rpsVs];
  return [
    setting,
    valid,
    ...(anyFailed ? [failed] : []),
    ...(flag !== SEMI_SPACE_FLAG && info.kind === 'young' ? [effective] : []),
    rps,
    latency,
    scavenges,
    gcMs,
    meanScavenge,
    wall,
    cpu,
    rss,
    ...allocColumn,
    ...survivorsColumn,
    ...gcCpuColumn,
    primaryVs,
    rpsVs,
  ];
}

/** The headers of this sweep's table (see columns()). */
export function sweepTableHeaders(result: TableInput): string[] {
  return columns(result).map((c) => c.header);
}

/** The setting the others were compared with: marked in the results, else the first value (older sweep.json). */
function baselineOf(result: TableInput): number | undefined {
  const marked = (result.results ?? []).find((r) => r.baseline === true);
  if (marked) return settingValue(marked);
  return sweepValues(result.config)[0] ?? (result.results?.[0] ? settingValue(result.results[0]) : undefined);
}

/**
 * The plain-text table the CLI prints (and tests read): one row per setting with the columns of
 * columns() (for a semi-space sweep: size (effective), valid runs, req/s median [spread], p50/p99
 * ms, scavenges/1k req, GC ms/1k req, mean scavenge ms, GC % wall, GC % CPU, peak RSS MB, and a
 * ratio/p column vs baseline for GC ms/1k and req/s: "~" when not significant, like benchstat).
 * Then the recommendation line. Column headers say what each counts.
 */
export function formatSweepTable(result: TableInput): string {
  const results = result.results ?? [];
  const flag = sweepFlag(result.config);
  const old = isOldSpaceFlag(flag);
  const baseline = baselineOf(result);
  const cols = columns(result);
  const rows = results.map((r) => cols.map((c) => c.cell(r, settingValue(r) === baseline)));
  const header = cols.map((c) => c.header);
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
      (old ? 'MC: Mark-Compact (full GC), count and pause in the measured window. ' : '') +
      'GC % wall: GC pause / window time; GC % CPU: GC pause / process CPU time (estimate). ' +
      (header.includes('failed req') ? 'failed req: errors + timeouts + non-2xx answers over all the setting\'s runs; a setting with any is never recommended. ' : '') +
      `vs base: change of the median vs ${baseline === undefined ? 'the baseline' : formatSetting(flag, baseline)} with the exact Mann-Whitney U p; ` +
      `~ = not significant (p >= 0.05 or change <= ${Math.round(PRACTICAL_THRESHOLD * 100)}%).`,
  );
  if (results.some((r) => r.runs.some((run) => isValidRun(run) && lostRequests(run) > 0))) {
    out.push('* a run lost requests (errors, timeouts or non-2xx answers): counted in the figures, never recommended.');
  }
  out.push('');
  const rec = result.recommendation;
  if (rec) {
    const value = recommendedValue(rec);
    out.push(value === null ? `Recommendation: ${rec.reason}` : `Recommendation: --${flag}=${num(value)}. ${rec.reason}`);
  }
  const warnings = result.warnings ?? [];
  if (warnings.length > 0) {
    out.push('');
    out.push('Warnings:');
    for (const w of warnings) out.push(`  - ${w}`);
  }
  return out.join('\n') + '\n';
}

/** Failed requests of a setting (an older sweep.json has no total: summed from its runs). */
function failedOf(r: SweepSettingResult): number {
  if (typeof r.failedRequests === 'number') return r.failedRequests;
  return r.runs.filter((run) => run.status !== 'cancelled').reduce((sum, run) => sum + lostRequests(run), 0);
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
