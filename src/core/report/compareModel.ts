/**
 * Compares two runs (or two profiles / GC traces): a merged call tree for a differential flame
 * graph, the GC, CPU and memory figures side by side with their change, the per-request figures of
 * runs under load (compareLoad.ts), and the functions whose self time changed most. Functions are
 * the same in both runs by name and file, then nearest line (functionMatch.ts), in the flame graph
 * and the tables alike. Built in the extension host (or the CLI); the compare webview renders it.
 *
 * A is the base, B the run compared with it; every change is B − A.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { chooseMainProcess, readAgentRecords } from '../run/agentRecords';
import { runLayout } from '../run/runLayout';
import type { CpuFunctionSummary, GcSummary, Summary } from '../../shared/model/summary';
import { round } from '../util/stats';
import { compareLoad, totalsVerdictNote } from './compareLoad';
import { allocMetricRows, allocatorChanges } from './compareAlloc';
import {
  MAX_MOVED,
  TOP_CHANGES,
  normalizeCompareTree,
  normalizationScale,
  compareTotals,
  type CompareModel,
  type CompareNode,
  type CompareNormalization,
  type CompareRequests,
  type CompareRunInfo,
  type CompareSide,
  type FunctionChange,
  type LoadComparison,
  type MetricRow,
  type MovedFunction,
  type TopChanges,
} from '../../shared/model/compareModel';
import { flameTotals } from '../../shared/flameTotals';
import { frameCategory } from '../../shared/frameCategory';
import { semiSpaceFlagText } from '../../shared/youngGenerationText';
import { matchFunctions, samePosition, type FunctionMatch, type FunctionRef } from './functionMatch';
import { metricRow, rowCollector } from './metricRow';
import { buildReportModel } from './reportModel';
import type { FlameNode, ReportModel } from '../../shared/model/reportModel';

export type * from '../../shared/model/compareModel';
export { normalizeCompareTree, compareTotals, describeMove, TOP_CHANGES, MAX_MOVED } from '../../shared/model/compareModel';
export { judgeChange, metricRow, SAME_THRESHOLD } from './metricRow';
export { matchFunctions, type FunctionMatch, type FunctionRef } from './functionMatch';

export interface CompareOptions {
  /** The unit of the tree's values and deltas; by default µs per request when both runs compare per request, else ms. */
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
  const records = await readAgentRecords(runLayout(source));
  const processes = report.summary.processes ?? [];
  if (processes.length > 1) {
    // A service of several processes is compared whole: its memory and CPU added up (npm's own left
    // out), and its flame graph's per-process roots named by role, so the workers of A meet B's.
    const counted = processes.filter((p) => p.role !== 'npm' && p.threadId === 0);
    const rss = counted.map((p) => p.maxRssMB).filter((mb) => mb !== null);
    input.peakRssMB = rss.length > 0 ? round(rss.reduce((n, mb) => n + mb, 0), 1) : null;
    const cpuUs = records.filter((r) => counted.some((p) => p.pid === r.pid) && (r.threadId ?? 0) === 0).reduce((n, r) => n + r.cpuUserUs + r.cpuSystemUs, 0);
    input.cpuTimeMs = cpuUs > 0 ? round(cpuUs / 1000, 1) : null;
    report.flame = byRole(report);
    return input;
  }
  const main = chooseMainProcess(records, report.session?.pid ?? null);
  if (main) {
    input.peakRssMB = main.maxRssKB > 0 ? round(main.maxRssKB / 1024, 1) : null;
    input.cpuTimeMs = main.cpuUserUs + main.cpuSystemUs > 0 ? round((main.cpuUserUs + main.cpuSystemUs) / 1000, 1) : null;
  }
  return input;
}

/** The flame graph with each process root named by its role ("worker"): pids differ from run to run. */
function byRole(report: ReportModel): FlameNode | null {
  const flame = report.flame;
  if (!flame) return null;
  const roleOf = new Map((report.processes ?? []).flatMap((v) => (v.flame ? [[v.flame, v.process.role] as const] : [])));
  return { ...flame, children: flame.children.map((c) => (c.category === 'process' ? { ...c, name: roleOf.get(c) ?? c.name } : c)) };
}

/** The comparison of two loaded inputs (pure: no file access). */
export function compareReports(a: CompareInput, b: CompareInput, options: CompareOptions = {}): CompareModel {
  const profileMs = { base: profileTotal(a.report), other: profileTotal(b.report) };
  const requests = perRequestBasis(a.report.summary, b.report.summary, profileMs);
  // A request-based model asked for where the runs cannot be compared per request falls back to ms.
  const wanted = options.normalization ?? (requests ? 'request' : 'ms');
  const normalization = wanted === 'request' && !requests ? 'ms' : wanted;
  const base = runInfo('base', a);
  const other = runInfo('other', b);
  if (base.label === other.label) {
    base.label = `${base.label} (${basename(base.source)})`;
    other.label = `${other.label} (${basename(other.source)})`;
  }
  const longer = Math.max(profileMs.base, profileMs.other);
  const lengthsDiffer = profileMs.base > 0 && profileMs.other > 0 && Math.abs(profileMs.base - profileMs.other) / longer > 0.2;
  // One matching for the flame graph and the tables, so a function is the same function in both.
  const sameNode = base.nodeVersion !== null && base.nodeVersion === other.nodeVersion;
  const match = matchFunctions(functionsOf(a.report), functionsOf(b.report), {
    base: base.cwd,
    other: other.cwd,
    // The same Node has the same internals: a `get` at another line there is another `get`.
    unchanged: sameNode ? (url) => frameCategory('', url) === 'node' : undefined,
  });

  let flame: CompareNode | null = null;
  let flameMissing: string | null = null;
  if (a.report.flame && b.report.flame) {
    const merged = mergeFlameTrees(a.report.flame, b.report.flame, match)!;
    flame = normalization === 'ms' ? merged : normalizeCompareTree(merged, normalization, profileMs, 'other', requests);
  } else {
    const without = [a, b].filter((x) => !x.report.flame).map((x) => (x === a ? 'A' : 'B'));
    flameMissing = `${without.join(' and ')} ${without.length > 1 ? 'have' : 'has'} no CPU profile, so there is nothing to compare frame by frame.`;
  }

  const gcMissing = !a.report.summary.gc && !b.report.summary.gc ? 'neither run traced GC (profile with the cpu-gc-deopts, cpu-gc or gc preset).' : null;
  const load = compareLoad(a.report.summary, b.report.summary, { base: busyMs(a.report), other: busyMs(b.report) });
  const moves = match.moves();
  const allocs = allocatorChanges(a.report.summary, b.report.summary, { base: base.cwd, other: other.cwd });
  return {
    title: `A: ${base.label} vs B: ${other.label}`,
    base,
    other,
    normalization,
    profileMs,
    requests,
    noiseNote: ONE_RUN_A_SIDE,
    lengthsDiffer,
    flame,
    flameMissing,
    metrics: compareMetrics(a, b, load),
    gcMissing,
    topChanges: {
      ms: topFunctionChanges(a.report.summary, b.report.summary, 'ms', profileMs, match),
      share: topFunctionChanges(a.report.summary, b.report.summary, 'share', profileMs, match),
      request: requests ? topFunctionChanges(a.report.summary, b.report.summary, 'request', profileMs, match, TOP_CHANGES, requests) : { increases: [], decreases: [] },
    },
    moved: { count: moves.length, functions: moves.slice(0, MAX_MOVED).map(({ base: from, other: to }): MovedFunction => ({ name: to.name, url: to.url, from: at(from), to: at(to) })) },
    load,
    allocChanges: allocs.changes,
    allocMissing: allocs.missing,
  };
}

const at = (f: FunctionRef) => ({ line: f.line, column: f.column });

/**
 * The compare page and `v8-lens compare` hold one run against one run: what that can tell, in the
 * gate's terms (the gate takes folders of rounds and tells a change from noise).
 */
export const ONE_RUN_A_SIDE =
  "1 vs 1 run: no run-to-run noise estimate, so 'better' and 'worse' are the measured change, which may be noise (only V8's sampling noise is known); " +
  'to tell a change from noise, profile 3 or more rounds per side and hold them with the gate: v8-lens compare <folder of runs A> <folder of runs B> --fail-on …';

/**
 * The requests each run served in its measured window, when self times compare per request: both
 * runs under load with the same warm-up and window lengths, both with a CPU profile. The profile
 * covers the whole run, so its self time over the window's requests overstates a request's cost,
 * alike in both runs only when the windows are alike (as compareLoad's CPU per request); null otherwise.
 */
export function perRequestBasis(a: Summary, b: Summary, profileMs: { base: number; other: number }): CompareRequests | null {
  const fa = a.load?.figures;
  const fb = b.load?.figures;
  if (!fa || !fb || !(fa.requests > 0) || !(fb.requests > 0) || !(profileMs.base > 0) || !(profileMs.other > 0)) return null;
  if (a.load!.warmupSeconds !== b.load!.warmupSeconds || a.load!.durationSeconds !== b.load!.durationSeconds) return null;
  return { base: fa.requests, other: fb.requests };
}

/** Every function a run's tables and flame graph name. */
function functionsOf(report: ReportModel): FunctionRef[] {
  return [...(report.summary.cpu?.functions ?? []), ...treeFrames(report.flame)];
}

// ------------------------------------------------------------------------------------ flame merge

function sumSelf(nodes: readonly FlameNode[]): number {
  let total = 0;
  for (const n of nodes) total += n.value;
  return total;
}

/**
 * Merges two flame trees by call path: a frame of A and a frame of B are the same node when their
 * whole stacks from the root are the same functions, matched by name and file, then nearest line
 * (`match`, by default from the two trees' own frames), so a function a line moved keeps its
 * frames and shows as moved. Frames found on one side only are kept with 0 ms on the other.
 * `value` is B's self ms and `delta` B − A self ms. Siblings that are the same function inside one
 * tree (V8 can split a frame) are merged too. A node has B's position when B has it. Children are
 * ordered by B's total, then A's, so the widest stacks line up on the left. Iterative.
 */
export function mergeFlameTrees(base: FlameNode | null, other: FlameNode | null, match: FunctionMatch = matchFunctions(treeFrames(base), treeFrames(other))): CompareNode | null {
  if (!base && !other) return null;
  const make = (bases: FlameNode[], others: FlameNode[], isRoot = false): CompareNode => {
    const baseMs = round(sumSelf(bases), 6);
    const otherMs = round(sumSelf(others), 6);
    const a = bases[0];
    const b = others[0];
    const shown = (b ?? a)!;
    return {
      name: isRoot ? 'all' : shown.name,
      value: otherMs,
      delta: round(otherMs - baseMs, 6),
      baseMs,
      otherMs,
      presence: a && b ? 'both' : a ? 'base' : 'other',
      category: shown.category,
      url: isRoot ? '' : shown.url,
      line: isRoot ? 0 : shown.line,
      column: isRoot ? 0 : shown.column,
      movedFrom: !isRoot && a && b && !samePosition(a, b) ? { line: a.line, column: a.column } : null,
      children: [],
    };
  };
  const bases = base ? [base] : [];
  const others = other ? [other] : [];
  const root = make(bases, others, true);
  const stack: { node: CompareNode; bases: FlameNode[]; others: FlameNode[] }[] = [{ node: root, bases, others }];
  while (stack.length > 0) {
    const { node, bases: bs, others: os } = stack.pop()!;
    const groups = new Map<string, { bases: FlameNode[]; others: FlameNode[] }>();
    const group = (side: CompareSide, child: FlameNode) => {
      const key = match.identity(side, child);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { bases: [], others: [] }));
      return g;
    };
    for (const parent of bs) for (const child of parent.children) group('base', child).bases.push(child);
    for (const parent of os) for (const child of parent.children) group('other', child).others.push(child);
    for (const g of groups.values()) {
      const child = make(g.bases, g.others);
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

/** Every frame below the root. */
function treeFrames(root: FlameNode | null): FlameNode[] {
  const out: FlameNode[] = [];
  const stack = root ? [...root.children] : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    out.push(node);
    for (const child of node.children) stack.push(child);
  }
  return out;
}

/** The sampled time, waiting frames' included (they are in the flame tree, and out of the functions). */
function profileTotal(report: ReportModel): number {
  if (report.flame) {
    const { totals } = flameTotals(report.flame);
    return round(totals.get(report.flame) ?? 0, 6);
  }
  return round((report.summary.cpu?.functions.reduce((n, f) => n + f.selfMs, 0) ?? 0) + (report.summary.cpu?.waitingMs ?? 0), 6);
}

/** Sampled time outside (idle) and waiting (threads blocked in Atomics.wait), ms; null without a profile. */
function busyMs(report: ReportModel): number | null {
  const cpu = report.summary.cpu;
  return cpu ? round(Math.max(0, profileTotal(report) - cpu.pseudo.idleMs - (cpu.waitingMs ?? 0)), 3) : null;
}

// ----------------------------------------------------------------------------------- run headers

function runInfo(side: CompareSide, input: CompareInput): CompareRunInfo {
  const { report } = input;
  const s = report.session;
  const gc = report.summary.gc;
  const program = s ? basename(s.target.program) : basename(report.source);
  const startedAt = s?.startedAt ?? input.modifiedAt;
  // The summary's: wherever the flag was given (runtimeArgs, NODE_OPTIONS, an npm script), not only V8 Lens's option.
  const requested = gc?.semiSpaceRequestedMB ?? s?.flags.semiSpaceMB ?? null;
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
    flags: s ? describeFlags(s.flags, requested) : null,
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

function describeFlags(f: NonNullable<ReportModel['session']>['flags'], askedMB: number | null): string {
  const semi = semiSpaceFlagText(askedMB, f.extra);
  const parts: string[] = [...(semi !== null ? [semi] : []), ...f.extra];
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

const GC_TYPE_ORDER = ['Scavenge', 'Minor Mark-Sweep', 'Minor Mark-Compact', 'Mark-Compact', 'Incremental Mark-Compact', 'Mark-sweep'];

function gcTypes(a: GcSummary | null, b: GcSummary | null): string[] {
  const types = new Set([...Object.keys(a?.byType ?? {}), ...Object.keys(b?.byType ?? {})]);
  const rank = (t: string) => (GC_TYPE_ORDER.includes(t) ? GC_TYPE_ORDER.indexOf(t) : GC_TYPE_ORDER.length);
  return [...types].sort((x, y) => rank(x) - rank(y) || x.localeCompare(y));
}

/**
 * The figures side by side: run, GC, CPU and memory. Rows where both sides are unknown are left out.
 * Totals (GC events and pauses, busy and process CPU time, and the rates and shares over the whole
 * run's wall time) grow with the work done: with `load` in either run they keep their values but
 * lose their verdict (`verdictNote` says why), so a run that served more requests is never "worse"
 * for its totals; the per-request figures (CompareModel.load) judge instead.
 */
export function compareMetrics(a: CompareInput, b: CompareInput, load: LoadComparison | null = null): MetricRow[] {
  const { rows, add: keep } = rowCollector();
  const totalNote = totalsVerdictNote(load);
  const add = (row: MetricRow, isTotal = false) => keep(isTotal && totalNote && row.direction !== 'neutral' && row.verdict !== 'n/a' ? { ...row, verdict: 'info', verdictNote: totalNote } : row);
  const total = (row: MetricRow) => add(row, true);
  const sa = a.report.summary;
  const sb = b.report.summary;
  const ga = sa.gc;
  const gb = sb.gc;

  // ---- run
  add(metricRow('duration', 'Duration', 'run', 'duration', 'neutral', runDuration(a.report), runDuration(b.report), { hint: 'Wall time of the run (of the trace or profile for a lone file).' }));
  const requested = (x: CompareInput) => x.report.summary.gc?.semiSpaceRequestedMB ?? x.report.session?.flags.semiSpaceMB ?? null;
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
    total(metricRow('gcEvents', 'GC events, total', 'gc', 'count', 'lower', ga?.eventCount ?? null, gb?.eventCount ?? null, { hint: 'Every GC event of the whole run.' }));
    for (const type of gcTypes(ga, gb)) {
      const ta = ga ? ga.byType[type] ?? null : null;
      const tb = gb ? gb.byType[type] ?? null : null;
      // A run that traced GC and saw none of this type had 0 of it.
      const count = (g: GcSummary | null, t: typeof ta) => (g ? t?.count ?? 0 : null);
      const pause = (g: GcSummary | null, t: typeof ta) => (g ? t?.totalMs ?? 0 : null);
      total(metricRow(`gc.${type}.count`, `${type} count, total`, 'gc', 'count', 'lower', count(ga, ta), count(gb, tb)));
      total(metricRow(`gc.${type}.totalMs`, `${type} pause, total`, 'gc', 'ms', 'lower', pause(ga, ta), pause(gb, tb)));
    }
    total(metricRow('gcPause', 'GC pause, total', 'gc', 'ms', 'lower', ga?.totalPauseMs ?? null, gb?.totalPauseMs ?? null, { hint: 'Main-thread pauses of every GC event of the whole run.' }));
    const scav = (g: GcSummary | null) => (g ? g.byType.Scavenge ?? null : null);
    if (scav(ga) || scav(gb)) {
      add(metricRow('scavengeMean', 'Mean scavenge pause', 'gc', 'ms', 'lower', scav(ga)?.meanMs ?? null, scav(gb)?.meanMs ?? null));
      add(metricRow('scavengeP95', 'p95 scavenge pause', 'gc', 'ms', 'lower', scav(ga)?.p95Ms ?? null, scav(gb)?.p95Ms ?? null));
      const perSecond = (g: GcSummary | null) => (g && g.wallMs > 0 ? round((g.byType.Scavenge?.count ?? 0) / (g.wallMs / 1000), 3) : null);
      total(metricRow('scavengesPerSecond', 'Scavenges per second', 'gc', 'per-s', 'lower', perSecond(ga), perSecond(gb), { hint: 'Scavenges over the wall time: comparable when the runs differ in length.' }));
    }
    if ((ga?.incrementalMarkingMs ?? 0) > 0 || (gb?.incrementalMarkingMs ?? 0) > 0) {
      total(metricRow('incrementalMarking', 'Incremental marking, total', 'gc', 'ms', 'lower', ga?.incrementalMarkingMs ?? null, gb?.incrementalMarkingMs ?? null, { hint: 'Marking work done in steps before Mark-Compact pauses (not in the pause total).' }));
    }
    total(metricRow('gcShare', 'GC share of wall time', 'gc', 'share', 'lower', ga?.wallShare ?? null, gb?.wallShare ?? null, { hint: 'Total GC pause / wall time of the whole run; its change is in percentage points.' }));
  }

  // ---- allocations
  const alloc = allocMetricRows(sa, sb);
  if (alloc) {
    add(alloc.rate);
    total(alloc.total);
  }

  // ---- CPU profile
  const ca = sa.cpu;
  const cb = sb.cpu;
  if (ca || cb) {
    const sampled = (x: CompareInput) => (x.report.summary.cpu ? profileTotal(x.report) : null);
    add(metricRow('profiled', 'Sampled time', 'cpu', 'duration', 'neutral', sampled(a), sampled(b)));
    total(metricRow('busy', 'Busy (not idle), total', 'cpu', 'ms', 'lower', busyMs(a.report), busyMs(b.report), { hint: 'Sampled time outside (idle) and waiting (threads blocked in Atomics.wait): for the same work, less is better.' }));
    total(metricRow('gcInProfile', 'In the garbage collector, total', 'cpu', 'ms', 'lower', ca?.pseudo.gcMs ?? null, cb?.pseudo.gcMs ?? null, { hint: 'The profile’s (garbage collector) frame.' }));
    add(metricRow('idle', 'Idle', 'cpu', 'ms', 'neutral', ca?.pseudo.idleMs ?? null, cb?.pseudo.idleMs ?? null, { hint: 'The event loop waiting for work.' }));
    if ((ca?.waitingMs ?? 0) > 0 || (cb?.waitingMs ?? 0) > 0) {
      add(metricRow('waiting', 'Waiting (threads blocked)', 'cpu', 'ms', 'neutral', ca?.waitingMs ?? null, cb?.waitingMs ?? null, { hint: 'Worker threads blocked in Atomics.wait (a pool waiting for work): off the CPU, in no function.' }));
    }
    add(metricRow('samples', 'Samples', 'cpu', 'count', 'neutral', ca?.sampleCount ?? null, cb?.sampleCount ?? null));
  }

  // ---- memory and process (preload agent)
  add(metricRow('peakRss', 'Peak RSS', 'memory', 'MB', 'lower', a.peakRssMB, b.peakRssMB, { hint: 'Peak resident set size of the main process.' }));
  total(metricRow('cpuTime', 'Process CPU time, total', 'memory', 'ms', 'lower', a.cpuTimeMs, b.cpuTimeMs, { hint: 'User + system CPU time of the main process.' }));
  return rows;
}

// ---------------------------------------------------------------------------------- top changes

/** Not a function whose time means work: the event loop waiting, and the tree's root. */
function isWaiting(f: CpuFunctionSummary): boolean {
  return f.url === '' && (f.name === '(idle)' || f.name === '(root)');
}

/**
 * The functions whose self time grew and shrank most from A to B (10 each), in ms or in percentage
 * points of each profile. Functions are the same by `match` (name and file, then nearest line; by
 * default from the two summaries): one that moved is one row with `movedFrom`, not a new and a
 * gone one. A function only in one run counts with 0 ms in the other.
 */
export function topFunctionChanges(
  a: Summary,
  b: Summary,
  normalization: CompareNormalization,
  profileMs: { base: number; other: number },
  match: FunctionMatch = matchFunctions(a.cpu?.functions ?? [], b.cpu?.functions ?? []),
  limit = TOP_CHANGES,
  /** For `request`: each run's requests in its measured window. */
  requests: CompareRequests | null = null,
): TopChanges {
  const scale = normalizationScale(normalization, profileMs, requests);
  if (!a.cpu || !b.cpu) return { increases: [], decreases: [] };
  const joined = new Map<string, { base: CpuFunctionSummary | null; other: CpuFunctionSummary | null }>();
  for (const f of a.cpu.functions) if (!isWaiting(f)) joined.set(match.identity('base', f), { base: f, other: null });
  for (const f of b.cpu.functions) {
    if (isWaiting(f)) continue;
    const key = match.identity('other', f);
    const entry = joined.get(key);
    if (entry) entry.other = f;
    else joined.set(key, { base: null, other: f });
  }
  const pct = (ms: number, total: number) => (total > 0 ? (ms / total) * 100 : 0);
  const changes: FunctionChange[] = [];
  for (const { base, other } of joined.values()) {
    const f = (other ?? base)!;
    const baseSelfMs = base?.selfMs ?? 0;
    const otherSelfMs = other?.selfMs ?? 0;
    const baseSelfPct = round(pct(baseSelfMs, profileMs.base), 6);
    const otherSelfPct = round(pct(otherSelfMs, profileMs.other), 6);
    const [from, to] = normalization === 'share' ? [baseSelfPct, otherSelfPct] : [baseSelfMs * scale.base, otherSelfMs * scale.other];
    const delta = round(to - from, normalization === 'share' ? 6 : 3);
    if (delta === 0) continue;
    changes.push({
      name: f.name,
      url: f.url,
      line: f.line,
      column: f.column,
      movedFrom: base && other && !samePosition(base, other) ? { line: base.line, column: base.column } : null,
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
