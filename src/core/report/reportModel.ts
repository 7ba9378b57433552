import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { buildFlameTree, warnFoldedFrames, type FlameNode } from './flameTree';
import { heapFlameTree, readAllocFlames } from './allocFlame';
import { readHeapProfileFile } from '../run/runAllocations';
import { runPath } from '../run/runFiles';
import { RunProfileViews, type ProfileViews } from './runProfileViews';
import { buildTimeProfile } from './timeProfile';
import { packTimeProfile } from './packTimeProfile';
import { clockWindow, lineUpWithGc } from '../cpu/profileClock';
import { readAgentRecords } from '../run/agentRecords';
import type { AgentRecord } from '../preload/agentRecord';
import type { TimeProfile } from '../../shared/model/timeProfile';
import type { GcEvent } from '../gc/gcEvent';
import { readRunGcTrace, v8LensScriptsOf } from '../run/analyzeRun';
import { collectGcTraceFile } from '../gc/gcTraceFile';
import { openRegularFile } from '../util/files';
import { impossibleGcEvents } from '../run/impossibleGcs';
import { groupByIsolate } from '../gc/gcSummary';
import { runLayout, type RunLayout } from '../run/runLayout';
import { readSessionRecord, readSummaryRecord } from '../run/runRecords';
import { sessionMode, type SessionRecord } from '../../shared/model/session';
import { runTargetTitle } from '../../shared/runTitle';
import { runDateTime } from '../../shared/runTime';
import { attachedToGcEvents, readAttachedGcEvents } from '../run/gcEventsFile';
import { sessionWindow, splitByWindow } from '../run/attachWindow';
import type { ProcessSummary, Summary } from '../../shared/model/summary';
import type { GcPoint, ProcessView, ReportModel } from '../../shared/model/reportModel';
import { nvpPointFigures } from '../gc/gcHelperTime';

export type { GcPoint, ProcessView, ReportModel };
import { errorMessage } from '../util/errors';
import { boundForPage } from './pageBounds';
import { loadReportAndProfile, sniffArtifact } from './loadReport';


export interface ReportModelOptions {
  /**
   * The model is only for a page (modelForPage): the flame tree of a profile the page draws from
   * its time-ordered form is not built (its warnings are still said). Compare needs the tree.
   */
  forPage?: boolean;
}

export async function buildReportModel(target: string, options: ReportModelOptions = {}): Promise<ReportModel> {
  const { summary, cpuModel, heapProfile, timeless } = await loadReportAndProfile(target);
  const info = await stat(target);
  if (info.isDirectory()) return buildRunModel(target, summary);

  const kind = await sniffArtifact(target);
  const model: ReportModel = { title: basename(target), source: target, summary, session: null, flame: null, gcEvents: [] };
  if (cpuModel) {
    // A pprof keeps each stack's total, not its time: no time-ordered views.
    const time = timeless ? null : buildTimeProfile(cpuModel, { clockMs: null, clockNote: 'a profile on its own: there is no GC trace to line it up with' });
    if (options.forPage && time !== null && time.spanNode.length > 0) warnFoldedFrames(cpuModel, summary.warnings);
    else model.flame = buildFlameTree(cpuModel, summary.warnings);
    if (time !== null) model.timeProfile = time;
  }
  if (heapProfile) model.allocFlame = heapFlameTree(heapProfile);
  if (kind === 'gc-trace') model.gcEvents = await gcPointsFromFile(target, summary);
  return model;
}

async function buildRunModel(dir: string, summary: Summary): Promise<ReportModel> {
  const layout = runLayout(dir);
  // Its problem, if any, is among the summary's warnings already (loadReport read it too).
  const session = (await readSessionRecord(dir)).value;
  const title = session ? `${runTargetTitle(session)}${session.mode === 'attach' ? ' (attached)' : ''} · ${runDateTime(session.startedAt)}` : basename(dir);
  const model: ReportModel = { title, source: dir, summary, session, flame: null, gcEvents: [] };
  const profiles = new RunProfileViews(layout, summary.warnings, v8LensScriptsOf(session));
  const allocFlames = await readAllocFlames(layout, summary.processes ?? [], session, summary.warnings, profiles);
  if (summary.survivors) model.survivorsFlame = await survivorsFlame(layout, summary.warnings);
  if ((summary.processes?.length ?? 0) > 1) {
    await addProcessViews(model, layout, allocFlames, profiles);
    return model;
  }
  const only = summary.processes?.[0];
  if (only && allocFlames.has(only.id)) model.allocFlame = allocFlames.get(only.id)!;
  const profile = summary.cpu?.profile;
  const views = profile === undefined ? null : await profiles.of(profile).catch((err: unknown) => (summary.warnings.push(`flame graph: ${errorMessage(err)}`), null));
  model.flame = views?.flame ?? null;
  if (session && sessionMode(session) === 'attach') {
    model.allocFlame = await attachedAllocFlame(layout, session, summary, profiles);
    // Attached runs have the observer's events instead of a --trace-gc log.
    model.gcEvents = await readAttachedGcEvents(layout).then(
      ({ events }) => attachedToGcEvents(splitByWindow(events, sessionWindow(session.attach)).inside, session.pid ?? 0).map(toPoint),
      () => [],
    );
    if (views) model.timeProfile = { ...views.time, clockMs: null, clockNote: 'attached: the GC events come from the process’s own observer, on another clock' };
  } else {
    model.gcEvents = await runGcEvents(layout).then((events) => mainIsolatePoints(events, summary), () => []);
    const record = await recordOf(layout, only ?? null);
    if (views) model.timeProfile = linedUp(views, record, model.gcEvents);
    model.loadWindow = loadWindowOf(summary, record);
  }
  return model;
}

/**
 * What outlived a young GC: the survivors pass's heap profiles as one flame graph (one root per
 * process of the pass when it had several, npm's own left out); null when none may be read.
 */
async function survivorsFlame(layout: RunLayout, warnings: string[]): Promise<FlameNode | null> {
  const dir = layout.survivorsDir;
  const [summary, session] = await Promise.all([readSummaryRecord(dir), readSessionRecord(dir)]);
  const processes = (summary.value?.processes ?? []).filter((p) => p.role !== 'npm');
  if (processes.length === 0) return null;
  const said: string[] = [];
  const passLayout = runLayout(dir);
  const flames = await readAllocFlames(passLayout, processes, session.value, said, new RunProfileViews(passLayout, said, v8LensScriptsOf(session.value)));
  warnings.push(...said.map((w) => `survivors: ${w}`));
  const roots = processes.flatMap((p) => (flames.has(p.id) ? [flames.get(p.id)!] : []));
  if (roots.length <= 1) return roots[0] ?? null;
  for (const p of processes) if (flames.has(p.id)) asProcessRoot(flames.get(p.id)!, processLabel(p));
  return { name: 'all', value: 0, children: roots, category: 'idle', url: '', line: 0, column: 0 };
}

/** An attached run's allocation flame graph, from the heap profile attach took over CDP; null without one. */
async function attachedAllocFlame(layout: RunLayout, session: SessionRecord, summary: Summary, profiles: RunProfileViews): Promise<FlameNode | null> {
  const raw = session.attach?.allocations;
  if (!raw || !summary.alloc) return null;
  const cpu = summary.cpu?.profile;
  const frames = cpu !== undefined ? await profiles.of(cpu).then((v) => v.frames, () => null) : null;
  const cpuPath = cpu !== undefined && frames ? runPath(layout.cpuDir, cpu) : null;
  const scriptFrames = new Map(cpuPath !== null && frames ? [[cpuPath, frames] as const] : []);
  const heap = await readHeapProfileFile(layout, raw.file, session.pid ?? 0, cpuPath, { scriptFrames, preloadPath: null }, []);
  return heap ? heapFlameTree(heap) : null;
}

/** The run's GC trace events; none without a trace or when it may not be read (the summary said why). */
async function runGcEvents(layout: RunLayout): Promise<readonly GcEvent[]> {
  const events = (await readRunGcTrace(layout, []))?.events ?? [];
  // What the summary left out as impossible for V8 (see run/impossibleGcs.ts) is not drawn either.
  const impossible = impossibleGcEvents(await readAgentRecords(layout).catch(() => []), groupByIsolate(events), null).events;
  return impossible.size === 0 ? events : events.filter((e) => !impossible.has(e));
}

/**
 * A run of several processes and threads: each one's flame graph, hot functions, GC events and deopts
 * for the selector, and the whole run as "all": one root frame per process (npm's own left out, as in
 * the summary's totals) and every GC event on the run's clock.
 */
async function addProcessViews(model: ReportModel, layout: RunLayout, allocFlames: ReadonlyMap<string, FlameNode>, profiles: RunProfileViews): Promise<void> {
  const summary = model.summary;
  const events = await runGcEvents(layout).catch((): readonly GcEvent[] => []);
  const views: ProcessView[] = [];
  const records = await readAgentRecords(layout).catch(() => []);
  for (const p of summary.processes ?? []) {
    const label = processLabel(p);
    let flame: FlameNode | null = null;
    let cpu: ProcessView['cpu'] = null;
    let timeViews: ProfileViews | null = null;
    if (p.cpu) {
      try {
        const views = await profiles.of(p.cpu.profile);
        timeViews = views;
        flame = views.flame;
        if (flame) asProcessRoot(flame, label);
        const part = views.cpu;
        cpu = { ...part, profiles: [{ file: p.cpu.profile, pid: p.pid, threadId: p.threadId, durationMs: part.durationMs, sampleCount: part.sampleCount }] };
      } catch (err) {
        summary.warnings.push(`flame graph of ${label}: ${errorMessage(err)}`);
      }
    }
    const isolate = p.gc?.isolate;
    const own = isolate ? events.filter((e) => e.pid === isolate.pid && e.isolate === isolate.isolate) : [];
    const shared = p.threadId !== 0 ? `${p.pid}/threads` : null;
    const gcEvents = own.map(toPoint);
    views.push({
      id: p.id,
      label,
      process: p,
      flame,
      ...(allocFlames.has(p.id) ? { allocFlame: asProcessRoot(allocFlames.get(p.id)!, label) } : {}),
      cpu,
      timeProfile: timeViews ? linedUp(timeViews, records.find((r) => sameIsolate(r, p)) ?? null, gcEvents) : null,
      // The load's warm-up and window on this process's own clock: its CPU strip is labelled like a lone process's.
      loadWindow: loadWindowOf(summary, records.find((r) => sameIsolate(r, p)) ?? null),
      gc: p.gc,
      gcEvents,
      deopts: summary.deopts.filter((d) => d.processes?.some((id) => id === p.id || id === shared)),
    });
  }
  const counted = views.filter((v) => v.process.role !== 'npm');
  const roots = counted.flatMap((v) => (v.flame ? [v.flame] : []));
  model.flame = roots.length > 0 ? { name: 'all', value: 0, children: roots, category: 'idle', url: '', line: 0, column: 0 } : null;
  // Each isolate counts from its own start: shifted by its process's start, all meet on the run's clock.
  const allocRoots = counted.flatMap((v) => (v.allocFlame ? [v.allocFlame] : []));
  if (allocRoots.length > 0) model.allocFlame = { name: 'all', value: 0, children: allocRoots, category: 'idle', url: '', line: 0, column: 0 };
  model.gcEvents = counted
    .flatMap((v) => v.gcEvents.map((e) => ({ ...e, timeMs: e.timeMs + (v.process.startMs ?? 0) })))
    .sort((a, b) => a.timeMs - b.timeMs);
  model.gcClock = 'run';
  model.processes = views;
  // The tiers' seconds are the app's: its req/s beside them.
  model.loadWindow = views.find((v) => v.process.threadId === 0 && (v.process.role === 'main' || v.process.role === 'primary'))?.loadWindow ?? null;
}

/** The profile on its isolate's GC clock, as far as the agent's clock record and the GC samples allow. */
function linedUp(views: ProfileViews, record: AgentRecord | null, events: readonly GcPoint[]): TimeProfile {
  const window = record ? clockWindow(record, views.firstSampleUs) : null;
  return { ...views.time, ...lineUpWithGc(views.time, events, window) };
}

/** The load's warm-up and measured window on the isolate's clock: epoch ms less the isolate's start. */
function loadWindowOf(summary: Summary, record: AgentRecord | null): ReportModel['loadWindow'] {
  const w = summary.load?.windowEpochMs;
  const created = record?.isolateCreatedMs;
  if (!w || !record || !Array.isArray(created)) return null;
  const isolateStartEpoch = record.processStartMs + (created[0] + created[1]) / 2;
  const fromMs = w.start - isolateStartEpoch;
  const rps = (summary.load?.rpsTimeline ?? []).map(([at, n]): [number, number] => [at - isolateStartEpoch, n]);
  return { warmupFromMs: Math.max(0, fromMs - (summary.load?.warmupSeconds ?? 0) * 1000), fromMs, toMs: w.end - isolateStartEpoch, rps };
}

async function recordOf(layout: RunLayout, p: ProcessSummary | null): Promise<AgentRecord | null> {
  if (!p) return null;
  const records = await readAgentRecords(layout).catch((): AgentRecord[] => []);
  return records.find((r) => sameIsolate(r, p)) ?? null;
}

function sameIsolate(r: AgentRecord, p: ProcessSummary): boolean {
  return r.pid === p.pid && (r.threadId ?? 0) === (p.threadId ?? 0);
}

/** A process's own tree as its root under "all": named by the process. */
function asProcessRoot(root: FlameNode, label: string): FlameNode {
  return Object.assign(root, { name: label, category: 'process' as const });
}

/** "worker · pid 4121", "worker thread 1 · pid 4120", "main · pid 4120". */
export function processLabel(p: ProcessSummary): string {
  if (p.threadId !== 0) return `worker thread${p.threadId === null ? '' : ` ${p.threadId}`} · pid ${p.pid}`;
  return `${p.role} · pid ${p.pid}`;
}

async function gcPointsFromFile(path: string, summary: Summary): Promise<GcPoint[]> {
  // Rows over the columns: the log can have millions of events, and a point keeps a few fields of each.
  return mainIsolatePoints((await collectGcTraceFile(await openRegularFile(path), basename(path), [])).table.views(), summary);
}

function mainIsolatePoints(events: readonly GcEvent[], summary: Summary): GcPoint[] {
  const main = summary.gc?.isolate;
  return events.filter((e) => !main || (e.pid === main.pid && e.isolate === main.isolate)).map(toPoint);
}

function toPoint(e: GcEvent): GcPoint {
  const point: GcPoint = { timeMs: e.timeMs, pauseMs: e.pauseMs, type: e.type, reason: e.reason, heapBeforeMB: e.heapBeforeMB, heapAfterMB: e.heapAfterMB };
  // V8's phases (--trace-gc-nvp): the helper threads' time and what a young GC copied.
  return e.nvp ? { ...point, ...nvpPointFigures(e) } : point;
}

/**
 * The model as the page receives it: a flame tree the page can build from the time-ordered profile
 * is left out (it would be the same call tree twice, and the page narrows it to a time range anyway),
 * and the time-ordered profiles are packed (see PackedArrays; the page unpacks them).
 */
export function modelForPage(full: ReportModel): ReportModel {
  // A page draws a bounded number of processes and warnings (see pageBounds.ts).
  const model = boundForPage(full);
  const has = (tp: ReportModel['timeProfile']) => tp !== undefined && tp !== null && (tp.spanNode.length > 0 || tp.packed !== undefined);
  const pack = (tp: ReportModel['timeProfile']) => (tp ? packTimeProfile(tp) : tp);
  // The page makes its function table from the time-ordered profile, and never shows per-line times.
  const lean = <T extends { functions: unknown[]; lines: unknown[] } | null>(cpu: T): T => (cpu ? { ...cpu, functions: cpu.functions.slice(0, PAGE_FUNCTIONS), lines: [] } : cpu);
  return {
    ...model,
    flame: has(model.timeProfile) ? null : model.flame,
    timeProfile: pack(model.timeProfile),
    summary: has(model.timeProfile) ? { ...model.summary, cpu: lean(model.summary.cpu) } : model.summary,
    ...(model.processes ? { processes: model.processes.map((v) => (has(v.timeProfile) ? { ...v, flame: null, cpu: lean(v.cpu), timeProfile: pack(v.timeProfile) } : v)) } : {}),
  };
}

/** Functions the page's summary keeps when it has the profile itself: the hot table's 200. */
const PAGE_FUNCTIONS = 200;
