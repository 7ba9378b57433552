/**
 * Compares two runs (or two profiles / GC traces): a merged call tree for a differential flame
 * graph, the GC, CPU and memory figures side by side with their change, and the functions whose
 * self time changed most. Built in the extension host (or the CLI); the compare webview renders it.
 *
 * A is the base, B the run compared with it; every change is B − A.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { chooseMainProcess, readAgentRecords } from '../run/agentRecords';
import { runLayout } from '../run/runLayout';
import type { CpuFunctionSummary, GcSummary, Summary } from '../summary/types';
import { round } from '../util/stats';
import {
  TOP_CHANGES,
  normalizeCompareTree,
  compareTotals,
  type CompareModel,
  type CompareNode,
  type CompareNormalization,
  type CompareRunInfo,
  type CompareSide,
  type FunctionChange,
  type MetricDirection,
  type MetricRow,
  type MetricUnit,
  type MetricVerdict,
  type TopChanges,
} from './compareModelTypes';
import { flameTotals } from './flameTotals';
import { frameCategory } from './frameCategory';
import { buildReportModel } from './reportModel';
import type { FlameNode, ReportModel } from './reportModelTypes';

export type * from './compareModelTypes';
export { normalizeCompareTree, compareTotals, TOP_CHANGES } from './compareModelTypes';

export interface CompareOptions {
  /** The unit of the tree's values and deltas; `ms` by default. */
  normalization?: CompareNormalization;
}

/** What one side brings: its report model and what the run folder says besides the summary. */
export interface CompareInput {
  report: ReportModel;
  /** The main process's peak RSS, MB (preload agent); null when not recorded. */
  peakRssMB: number | null;
  /** The main process's CPU time, user + system, ms (preload agent); null when not recorded. */
  cpuTimeMs: number | null;
  /** A lone file's modification time (ISO), standing in for a run's start. */
  modifiedAt: string | null;
}

/** Loads both runs (run folders or single artifacts) and compares them, A = `base`, B = `other`. */
export async function buildCompareModel(base: string, other: string, options: CompareOptions = {}): Promise<CompareModel> {
  const [a, b] = await Promise.all([loadInput(base), loadInput(other)]);
  return compareReports(a, b, options);
}

export async function loadInput(source: string): Promise<CompareInput> {
  const report = await buildReportModel(source);
  const info = await stat(source);
  const input: CompareInput = { report, peakRssMB: null, cpuTimeMs: null, modifiedAt: null };
  if (!info.isDirectory()) {
    input.modifiedAt = info.mtime.toISOString();
    return input;
  }
  const records = await readAgentRecords(runLayout(source).agentDir);
  const main = chooseMainProcess(records, report.session?.pid ?? null);
  if (main) {
    input.peakRssMB = main.maxRssKB > 0 ? round(main.maxRssKB / 1024, 1) : null;
    input.cpuTimeMs = main.cpuUserUs + main.cpuSystemUs > 0 ? round((main.cpuUserUs + main.cpuSystemUs) / 1000, 1) : null;
  }
  return input;
}

/** The comparison of two loaded inputs (pure: no file access). */
export function compareReports(a: CompareInput, b: CompareInput, options: CompareOptions = {}): CompareModel {
  const normalization = options.normalization ?? 'ms';
  const base = runInfo('base', a);
  const other = runInfo('other', b);
  if (base.label === other.label) {
    base.label = `${base.label} (${basename(base.source)})`;
    other.label = `${other.label} (${basename(other.source)})`;
  }
  const profileMs = { base: profileTotal(a.report), other: profileTotal(b.report) };
  const longer = Math.max(profileMs.base, profileMs.other);
  const lengthsDiffer = profileMs.base > 0 && profileMs.other > 0 && Math.abs(profileMs.base - profileMs.other) / longer > 0.2;

  let flame: CompareNode | null = null;
  let flameMissing: string | null = null;
  if (a.report.flame && b.report.flame) {
    const merged = mergeFlameTrees(a.report.flame, b.report.flame)!;
    flame = normalization === 'ms' ? merged : normalizeCompareTree(merged, normalization, profileMs);
  } else {
    const without = [a, b].filter((x) => !x.report.flame).map((x) => (x === a ? 'A' : 'B'));
    flameMissing = `${without.join(' and ')} ${without.length > 1 ? 'have' : 'has'} no CPU profile, so there is nothing to compare frame by frame.`;
  }

  const gcMissing = !a.report.summary.gc && !b.report.summary.gc ? 'neither run traced GC (profile with the cpu-gc-deopts, cpu-gc or gc preset).' : null;
  return {
    title: `A: ${base.label} vs B: ${other.label}`,
    base,
    other,
    normalization,
    profileMs,
    lengthsDiffer,
    flame,
    flameMissing,
    metrics: compareMetrics(a, b),
    gcMissing,
    topChanges: {
      ms: topFunctionChanges(a.report.summary, b.report.summary, 'ms', profileMs),
      share: topFunctionChanges(a.report.summary, b.report.summary, 'share', profileMs),
    },
  };
}

// ------------------------------------------------------------------------------------ flame merge

function frameKey(n: FlameNode): string {
  return `${n.name}\u0000${n.url}\u0000${n.line}\u0000${n.column}`;
}

function sumSelf(nodes: readonly FlameNode[]): number {
  let total = 0;
  for (const n of nodes) total += n.value;
  return total;
}

/**
 * Merges two flame trees by call path: a frame of A and a frame of B are the same node when their
 * whole stacks from the root match (name + url + line + column per frame). Frames found on one
 * side only are kept with 0 ms on the other. `value` is B's self ms and `delta` B − A self ms.
 * Siblings that share a key inside one tree (V8 can split a frame) are merged too. Children are
 * ordered by B's total, then A's, so the widest stacks line up on the left. Iterative.
 */
export function mergeFlameTrees(base: FlameNode | null, other: FlameNode | null): CompareNode | null {
  if (!base && !other) return null;
  const make = (sample: FlameNode, bases: FlameNode[], others: FlameNode[], isRoot = false): CompareNode => {
    const baseMs = round(sumSelf(bases), 6);
    const otherMs = round(sumSelf(others), 6);
    return {
      name: isRoot ? 'all' : sample.name,
      value: otherMs,
      delta: round(otherMs - baseMs, 6),
      baseMs,
      otherMs,
      presence: bases.length > 0 && others.length > 0 ? 'both' : bases.length > 0 ? 'base' : 'other',
      category: sample.category,
      url: isRoot ? '' : sample.url,
      line: isRoot ? 0 : sample.line,
      column: isRoot ? 0 : sample.column,
      children: [],
    };
  };
  const bases = base ? [base] : [];
  const others = other ? [other] : [];
  const root = make((base ?? other)!, bases, others, true);
  const stack: { node: CompareNode; bases: FlameNode[]; others: FlameNode[] }[] = [{ node: root, bases, others }];
  while (stack.length > 0) {
    const { node, bases: bs, others: os } = stack.pop()!;
    const groups = new Map<string, { sample: FlameNode; bases: FlameNode[]; others: FlameNode[] }>();
    const group = (child: FlameNode) => {
      const key = frameKey(child);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { sample: child, bases: [], others: [] }));
      return g;
    };
    for (const parent of bs) for (const child of parent.children) group(child).bases.push(child);
    for (const parent of os) for (const child of parent.children) group(child).others.push(child);
    for (const g of groups.values()) {
      const child = make(g.sample, g.bases, g.others);
      node.children.push(child);
      stack.push({ node: child, bases: g.bases, others: g.others });
    }
  }
  const { order, base: baseTotals, other: otherTotals } = compareTotals(root);
  for (const node of order) {
    if (node.children.length > 1) {
      node.children.sort((x, y) => otherTotals.get(y)! - otherTotals.get(x)! || baseTotals.get(y)! - baseTotals.get(x)!);
    }
  }
  return root;
}

function profileTotal(report: ReportModel): number {
  if (report.flame) {
    const { totals } = flameTotals(report.flame);
    return round(totals.get(report.flame) ?? 0, 6);
  }
  return round(report.summary.cpu?.functions.reduce((n, f) => n + f.selfMs, 0) ?? 0, 6);
}

// ----------------------------------------------------------------------------------- run headers

function runInfo(side: CompareSide, input: CompareInput): CompareRunInfo {
  const { report } = input;
  const s = report.session;
  const gc = report.summary.gc;
  const program = s ? basename(s.target.program) : basename(report.source);
  const startedAt = s?.startedAt ?? input.modifiedAt;
  const requested = s?.flags.semiSpaceMB ?? gc?.semiSpaceRequestedMB ?? null;
  const effective = gc?.semiSpaceMB ?? null;
  const semi = requested !== null ? `${fmtMB(requested)} MB` : effective !== null ? `~${fmtMB(effective)} MB` : null;
  const time = startedAt ? clock(startedAt) : null;
  const label = [program + (semi ? ` ${semi}` : ''), time].filter(Boolean).join(' · ');
  return {
    side,
    label,
    title: report.title,
    source: report.source,
    kind: report.summary.source.kind,
    program,
    startedAt,
    nodeVersion: s?.node.version ?? null,
    v8Version: s?.node.v8Version || null,
    flags: s ? describeFlags(s.flags) : null,
    semiSpaceRequestedMB: requested,
    semiSpaceMB: effective,
    durationMs: runDuration(report),
    cwd: s?.target.cwd ?? null,
    warnings: [...report.summary.warnings],
  };
}

function fmtMB(mb: number): string {
  return Number.isInteger(mb) ? String(mb) : mb.toFixed(1);
}

/** "14:02" in the host's local time (the webview runs on the same machine). */
function clock(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
}

function describeFlags(f: NonNullable<ReportModel['session']>['flags']): string {
  const parts: string[] = [f.semiSpaceMB !== null ? `--max-semi-space-size=${f.semiSpaceMB}` : 'semi-space: V8 default', ...f.extra];
  if (f.preset) parts.push(`preset ${f.preset}`);
  if (f.capture.cpu) parts.push(`sampling ${f.samplingIntervalUs} µs`);
  return parts.join(' · ');
}

function runDuration(report: ReportModel): number | null {
  const s = report.session;
  if (s?.durationMs != null) return s.durationMs;
  if (report.summary.gc && report.summary.gc.wallMs > 0) return report.summary.gc.wallMs;
  return report.summary.cpu?.durationMs ?? null;
}

// --------------------------------------------------------------------------------------- metrics

/** Changes smaller than this fraction of the larger value count as no change. */
export const SAME_THRESHOLD = 0.01;

/** Better or worse, by the figure's direction: fewer scavenges is better, more req/s is better. */
export function judgeChange(direction: MetricDirection, base: number | null, other: number | null): MetricVerdict {
  if (base === null || other === null) return 'n/a';
  if (direction === 'neutral') return 'info';
  const diff = other - base;
  const scale = Math.max(Math.abs(base), Math.abs(other));
  if (diff === 0 || scale === 0 || Math.abs(diff) / scale < SAME_THRESHOLD) return 'same';
  return (diff > 0) === (direction === 'higher') ? 'better' : 'worse';
}

export function metricRow(
  key: string,
  label: string,
  group: MetricRow['group'],
  unit: MetricUnit,
  direction: MetricDirection,
  base: number | null,
  other: number | null,
  extra: Pick<MetricRow, 'baseText' | 'otherText' | 'hint'> = {},
): MetricRow {
  const both = base !== null && other !== null;
  const change = both ? round(other - base, 6) : null;
  const changePct = both && base !== 0 ? round(((other - base) / Math.abs(base)) * 100, 3) : null;
  return { key, label, group, unit, direction, base, other, change, changePct, verdict: judgeChange(direction, base, other), ...extra };
}

const GC_TYPE_ORDER = ['Scavenge', 'Minor Mark-Sweep', 'Minor Mark-Compact', 'Mark-Compact', 'Mark-sweep'];

function gcTypes(a: GcSummary | null, b: GcSummary | null): string[] {
  const types = new Set([...Object.keys(a?.byType ?? {}), ...Object.keys(b?.byType ?? {})]);
  const rank = (t: string) => (GC_TYPE_ORDER.includes(t) ? GC_TYPE_ORDER.indexOf(t) : GC_TYPE_ORDER.length);
  return [...types].sort((x, y) => rank(x) - rank(y) || x.localeCompare(y));
}

/** The figures side by side: run, GC, CPU and memory. Rows where both sides are unknown are left out. */
export function compareMetrics(a: CompareInput, b: CompareInput): MetricRow[] {
  const rows: MetricRow[] = [];
  const add = (row: MetricRow) => {
    if (row.base !== null || row.other !== null || row.baseText || row.otherText) rows.push(row);
  };
  const sa = a.report.summary;
  const sb = b.report.summary;
  const ga = sa.gc;
  const gb = sb.gc;

  // ---- run
  add(metricRow('duration', 'Duration', 'run', 'duration', 'neutral', runDuration(a.report), runDuration(b.report), { hint: 'Wall time of the run (of the trace or profile for a lone file).' }));
  const requested = (x: CompareInput) => x.report.session?.flags.semiSpaceMB ?? x.report.summary.gc?.semiSpaceRequestedMB ?? null;
  const requestedText = (x: CompareInput) => (requested(x) === null && x.report.session ? 'V8 default' : undefined);
  add(
    metricRow('semiSpaceRequested', 'Semi-space asked for', 'run', 'MB', 'neutral', requested(a), requested(b), {
      baseText: requestedText(a),
      otherText: requestedText(b),
      hint: '--max-semi-space-size: a setting, not an outcome.',
    }),
  );
  add(metricRow('semiSpace', 'Semi-space reached', 'run', 'MB', 'neutral', ga?.semiSpaceMB ?? null, gb?.semiSpaceMB ?? null, { hint: 'Largest new space the process had, halved (measured by V8 Lens’ preload agent).' }));

  // ---- GC
  if (ga || gb) {
    add(metricRow('gcEvents', 'GC events', 'gc', 'count', 'lower', ga?.eventCount ?? null, gb?.eventCount ?? null));
    for (const type of gcTypes(ga, gb)) {
      const ta = ga ? ga.byType[type] ?? null : null;
      const tb = gb ? gb.byType[type] ?? null : null;
      // A run that traced GC and saw none of this type had 0 of it.
      const count = (g: GcSummary | null, t: typeof ta) => (g ? t?.count ?? 0 : null);
      const total = (g: GcSummary | null, t: typeof ta) => (g ? t?.totalMs ?? 0 : null);
      add(metricRow(`gc.${type}.count`, `${type} count`, 'gc', 'count', 'lower', count(ga, ta), count(gb, tb)));
      add(metricRow(`gc.${type}.totalMs`, `${type} pause, total`, 'gc', 'ms', 'lower', total(ga, ta), total(gb, tb)));
    }
    add(metricRow('gcPause', 'Total GC pause', 'gc', 'ms', 'lower', ga?.totalPauseMs ?? null, gb?.totalPauseMs ?? null, { hint: 'Main-thread pauses of every GC event.' }));
    const scav = (g: GcSummary | null) => (g ? g.byType.Scavenge ?? null : null);
    if (scav(ga) || scav(gb)) {
      add(metricRow('scavengeMean', 'Mean scavenge pause', 'gc', 'ms', 'lower', scav(ga)?.meanMs ?? null, scav(gb)?.meanMs ?? null));
      add(metricRow('scavengeP95', 'p95 scavenge pause', 'gc', 'ms', 'lower', scav(ga)?.p95Ms ?? null, scav(gb)?.p95Ms ?? null));
      const perSecond = (g: GcSummary | null) => (g && g.wallMs > 0 ? round((g.byType.Scavenge?.count ?? 0) / (g.wallMs / 1000), 3) : null);
      add(metricRow('scavengesPerSecond', 'Scavenges per second', 'gc', 'per-s', 'lower', perSecond(ga), perSecond(gb), { hint: 'Scavenges over the wall time: comparable when the runs differ in length.' }));
    }
    if ((ga?.incrementalMarkingMs ?? 0) > 0 || (gb?.incrementalMarkingMs ?? 0) > 0) {
      add(metricRow('incrementalMarking', 'Incremental marking', 'gc', 'ms', 'lower', ga?.incrementalMarkingMs ?? null, gb?.incrementalMarkingMs ?? null, { hint: 'Marking work done in steps before Mark-Compact pauses (not in the pause total).' }));
    }
    add(metricRow('gcShare', 'GC share of wall time', 'gc', 'share', 'lower', ga?.wallShare ?? null, gb?.wallShare ?? null, { hint: 'Total GC pause / wall time; its change is in percentage points.' }));
  }

  // ---- CPU profile
  const ca = sa.cpu;
  const cb = sb.cpu;
  if (ca || cb) {
    const sampled = (x: CompareInput) => (x.report.summary.cpu ? profileTotal(x.report) : null);
    add(metricRow('profiled', 'Sampled time', 'cpu', 'duration', 'neutral', sampled(a), sampled(b)));
    const busy = (x: CompareInput) => {
      const c = x.report.summary.cpu;
      return c ? round(Math.max(0, profileTotal(x.report) - c.pseudo.idleMs), 3) : null;
    };
    add(metricRow('busy', 'Busy (not idle)', 'cpu', 'ms', 'lower', busy(a), busy(b), { hint: 'Sampled time outside (idle): for the same work, less is better.' }));
    add(metricRow('gcInProfile', 'In the garbage collector', 'cpu', 'ms', 'lower', ca?.pseudo.gcMs ?? null, cb?.pseudo.gcMs ?? null, { hint: 'The profile’s (garbage collector) frame.' }));
    add(metricRow('idle', 'Idle', 'cpu', 'ms', 'neutral', ca?.pseudo.idleMs ?? null, cb?.pseudo.idleMs ?? null, { hint: 'The event loop waiting for work.' }));
    add(metricRow('samples', 'Samples', 'cpu', 'count', 'neutral', ca?.sampleCount ?? null, cb?.sampleCount ?? null));
  }

  // ---- memory and process (preload agent)
  add(metricRow('peakRss', 'Peak RSS', 'memory', 'MB', 'lower', a.peakRssMB, b.peakRssMB, { hint: 'Peak resident set size of the main process.' }));
  add(metricRow('cpuTime', 'Process CPU time', 'memory', 'ms', 'lower', a.cpuTimeMs, b.cpuTimeMs, { hint: 'User + system CPU time of the main process.' }));
  return rows;
}

// ---------------------------------------------------------------------------------- top changes

function functionKey(f: CpuFunctionSummary): string {
  return `${f.name}\u0000${f.url}\u0000${f.line}\u0000${f.column}`;
}

/** Not a function whose time means work: the event loop waiting, and the tree's root. */
function isWaiting(f: CpuFunctionSummary): boolean {
  return f.url === '' && (f.name === '(idle)' || f.name === '(root)');
}

/**
 * The functions whose self time grew and shrank most from A to B (10 each), in ms or in percentage
 * points of each profile. A function only in one run counts with 0 ms in the other.
 */
export function topFunctionChanges(
  a: Summary,
  b: Summary,
  normalization: CompareNormalization,
  profileMs: { base: number; other: number },
  limit = TOP_CHANGES,
): TopChanges {
  if (!a.cpu || !b.cpu) return { increases: [], decreases: [] };
  const joined = new Map<string, { base: CpuFunctionSummary | null; other: CpuFunctionSummary | null }>();
  for (const f of a.cpu.functions) if (!isWaiting(f)) joined.set(functionKey(f), { base: f, other: null });
  for (const f of b.cpu.functions) {
    if (isWaiting(f)) continue;
    const entry = joined.get(functionKey(f));
    if (entry) entry.other = f;
    else joined.set(functionKey(f), { base: null, other: f });
  }
  const pct = (ms: number, total: number) => (total > 0 ? (ms / total) * 100 : 0);
  const changes: FunctionChange[] = [];
  for (const { base, other } of joined.values()) {
    const f = (base ?? other)!;
    const baseSelfMs = base?.selfMs ?? 0;
    const otherSelfMs = other?.selfMs ?? 0;
    const baseSelfPct = round(pct(baseSelfMs, profileMs.base), 6);
    const otherSelfPct = round(pct(otherSelfMs, profileMs.other), 6);
    const [from, to] = normalization === 'ms' ? [baseSelfMs, otherSelfMs] : [baseSelfPct, otherSelfPct];
    const delta = round(to - from, normalization === 'ms' ? 3 : 6);
    if (delta === 0) continue;
    changes.push({
      name: f.name,
      url: f.url,
      line: f.line,
      column: f.column,
      category: frameCategory(f.name, f.url, f.line),
      baseSelfMs,
      otherSelfMs,
      baseTotalMs: base?.totalMs ?? 0,
      otherTotalMs: other?.totalMs ?? 0,
      baseSelfPct,
      otherSelfPct,
      delta,
      deltaPct: from > 0 ? round(((to - from) / from) * 100, 3) : null,
      presence: base && other ? 'both' : base ? 'base' : 'other',
    });
  }
  const stable = (x: FunctionChange, y: FunctionChange) => x.name.localeCompare(y.name) || x.url.localeCompare(y.url) || x.line - y.line;
  return {
    increases: changes.filter((c) => c.delta > 0).sort((x, y) => y.delta - x.delta || stable(x, y)).slice(0, limit),
    decreases: changes.filter((c) => c.delta < 0).sort((x, y) => x.delta - y.delta || stable(x, y)).slice(0, limit),
  };
}
