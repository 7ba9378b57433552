/**
 * The lab's results table, column by column. The columns follow the swept flag; medians of the
 * valid runs, and the change from the baseline where the sweep tested it ("~": no detectable one).
 */
import { fmtBytes } from '../../src/shared/formatBytes';
import { formatValueWithUnit, isOldSpaceFlag, sweepFlagInfo } from '../../src/shared/sweepFlags';
import { SEMI_SPACE_FLAG, settingValue, sweepFlag } from '../../src/shared/model/sweep';
import type { SweepResult, SweepSettingResult } from '../../src/shared/labProtocol';
import { PROFILING_GC_CPU_HEAD, profilingGcCpuCell } from '../../src/shared/gcCpuText';
import { LAB_SURVIVORS_HEAD, labSurvivorsCell } from '../../src/shared/survivorsText';

const fmt = (v: number | null, digits = 1) => (v === null ? '–' : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const pct = (v: number | null) => (v === null ? '–' : `${(v * 100).toFixed(1)}%`);

type ChangeKey = 'rps' | 'gcMsPer1k' | 'markCompactMsPer1k';

function change(s: SweepSettingResult, key: ChangeKey): string {
  const c = s.vsBaseline[key];
  if (!c || c.ratio === null) return '';
  const delta = `${c.ratio >= 1 ? '+' : '−'}${Math.abs((c.ratio - 1) * 100).toFixed(0)}%`;
  return c.significant ? `${delta} (p ${c.p === null ? '' : `= ${c.p.toFixed(2)}`})` : `${delta} ~`;
}

interface LabColumn {
  head: string;
  cell(s: SweepSettingResult, isBaseline: boolean): string;
}

/** Failed requests of a setting (summed from its runs for a result without the total). */
export function failedOf(s: SweepSettingResult): number {
  if (typeof s.failedRequests === 'number') return s.failedRequests;
  return s.runs.filter((r) => r.status !== 'cancelled').reduce((n, r) => n + (r.load ? r.load.errors + r.load.timeouts + r.load.non2xx : 0), 0);
}

/**
 * The table's columns for this sweep. The semi-space (and other young-generation flags): the
 * columns the lab always had, with "failed requests" after the valid runs as soon as any run lost
 * one. An old-space flag: failed requests always, Mark-Compacts and their pause per 1k requests
 * (the primary metric) and peak RSS before the scavenge figures.
 */
/**
 * The results table's columns. `compact`: the sidebar's few (the setting, valid runs, req/s,
 * scavenges and GC per 1k requests), which fit its width; the results panel has them all.
 */
export function labColumns(result: SweepResult, compact = false): LabColumn[] {
  const flag = sweepFlag(result.config);
  const old = isOldSpaceFlag(flag);
  const unit = sweepFlagInfo(flag).unit;
  const anyFailed = result.results.some((s) => failedOf(s) > 0);
  const withChange = (text: string, s: SweepSettingResult, isBaseline: boolean, key: ChangeKey) => `${text} ${isBaseline ? '' : change(s, key)}`.trim();
  const setting: LabColumn =
    flag === SEMI_SPACE_FLAG
      ? { head: 'MB (effective)', cell: (s) => `${settingValue(s)}${s.effectiveSemiSpaceMB === null ? '' : ` (${fmt(s.effectiveSemiSpaceMB, 0)})`}` }
      : { head: `--${flag}${unit ? ` (${unit})` : ''}`, cell: (s) => (sweepFlagInfo(flag).onOff ? formatValueWithUnit(flag, settingValue(s)) : String(settingValue(s))) };
  // Of the measured runs: a profiling run is not a round (older sweeps had no purpose: every run measured).
  const valid: LabColumn = { head: 'valid runs', cell: (s) => `${s.validRuns}/${s.runs.filter((r) => r.purpose !== 'profile' && r.purpose !== 'survivors').length}` };
  const failed: LabColumn = { head: 'failed requests', cell: (s) => failedOf(s).toLocaleString('en-US') };
  const rps: LabColumn = { head: 'req/s', cell: (s, b) => withChange(fmt(s.median.rps, 0), s, b, 'rps') };
  const latency: LabColumn = { head: 'p50 / p99 ms', cell: (s) => `${fmt(s.median.p50Ms, 0)} / ${fmt(s.median.p99Ms, 0)}` };
  const scavenges: LabColumn = { head: 'scavenges / 1k req', cell: (s) => fmt(s.median.scavengesPer1k, 2) };
  const gcMs: LabColumn = { head: 'GC ms / 1k req', cell: (s, b) => (old ? fmt(s.median.gcMsPer1k, 1) : withChange(fmt(s.median.gcMsPer1k, 1), s, b, 'gcMsPer1k')) };
  const scavengeMs: LabColumn = { head: 'mean / p95 scavenge ms', cell: (s) => `${fmt(s.median.meanScavengeMs, 2)} / ${fmt(s.median.p95ScavengeMs, 2)}` };
  const wall: LabColumn = { head: 'GC % of wall time', cell: (s) => pct(s.median.gcWallShare) };
  const cpu: LabColumn = { head: 'GC % of process CPU', cell: (s) => pct(s.median.gcCpuShare) };
  const rss: LabColumn = { head: 'peak RSS MB', cell: (s) => fmt(s.median.peakRssMB, 0) };
  const markCompacts: LabColumn = { head: 'Mark-Compacts / 1k req', cell: (s) => fmt(s.median.markCompactsPer1k ?? null, 3) };
  const markCompactMs: LabColumn = { head: 'Mark-Compact ms / 1k req', cell: (s, b) => withChange(fmt(s.median.markCompactMsPer1k ?? null, 2), s, b, 'markCompactMsPer1k') };
  const effective: LabColumn = { head: 'semi-space MB reached', cell: (s) => fmt(s.effectiveSemiSpaceMB, 1) };
  // What the code allocates per request: the same at every setting (the warnings say when not).
  const allocated = result.results.some((s) => typeof s.median.allocBytesPerRequest === 'number');
  const alloc: LabColumn = { head: 'allocated / req', cell: (s) => (typeof s.median.allocBytesPerRequest === 'number' ? fmtBytes(s.median.allocBytesPerRequest) : '–') };
  const allocColumn = allocated ? [alloc] : [];
  // The profiling run's GC CPU, main thread and V8's helper threads (it traces V8's phases).
  // The survivors run's bytes per request that outlived a young GC, of what the profiling run allocated.
  const survivorsColumn = result.results.some((s) => labSurvivorsCell(s.runs) !== null) ? [{ head: LAB_SURVIVORS_HEAD, cell: (s: SweepSettingResult) => labSurvivorsCell(s.runs) ?? '–' }] : [];
  const gcCpuColumn = result.results.some((s) => profilingGcCpuCell(s.runs) !== null) ? [{ head: PROFILING_GC_CPU_HEAD, cell: (s: SweepSettingResult) => profilingGcCpuCell(s.runs) ?? '–' }] : [];
  if (old) return compact ? [setting, valid, rps, gcMs] : [setting, valid, failed, rps, latency, markCompacts, markCompactMs, rss, gcMs, scavenges, wall, cpu, ...allocColumn];
  if (compact) return [setting, valid, ...(anyFailed ? [failed] : []), rps, scavenges, gcMs];
  return [
    setting,
    valid,
    ...(anyFailed ? [failed] : []),
    rps,
    latency,
    scavenges,
    gcMs,
    scavengeMs,
    wall,
    cpu,
    rss,
    ...allocColumn,
    ...survivorsColumn,
    ...gcCpuColumn,
    ...(flag !== SEMI_SPACE_FLAG && sweepFlagInfo(flag).kind === 'young' ? [effective] : []),
  ];
}
