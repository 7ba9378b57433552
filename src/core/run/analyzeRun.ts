import { stat, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { CPU_PROFILE_READ_LIMIT, parseCpuProfile } from '../cpu/parseCpuProfile';
import { summarizeCpuModel } from '../cpu/cpuSummary';
import { buildCpuModel } from '../cpu/cpuModel';
import type { InlinedLineCounts } from '../cpu/inlinedLines';
import { scriptOutlinesOf, type OutlineCache } from './scriptOutlines';
import { inlinedLinesOf } from './inlinedLinesNote';
import { processAllocMissing, runAllocMissing } from './allocMissing';
import { mergeCpuSummaries, type CpuPart } from '../cpu/mergeCpuSummaries';
import type { GcRawCounts } from '../gc/gcTraceCollector';
import { collectGcTraceFile } from '../gc/gcTraceFile';
import { groupByIsolate, summarizeGc, summarizeRunGc, type IsolateEvents, type RunGcPart } from '../gc/gcSummary';
import type { GcEvent } from '../gc/gcEvent';
import {
  SUMMARY_SCHEMA_VERSION,
  emptySummary,
  type CpuProfileFile,
  type AllocFunctionSummary,
  type AllocSummary,
  type CpuSummary,
  type DeoptCoverage,
  type GcSummary,
  type PretenuringSummary,
  type LoadSummary,
  type ProcessSummary,
  type Summary,
} from '../../shared/model/summary';
import { windowTotals } from '../gc/gcWindow';
import { AGENT_ENV, TRACE_PRETENURING_FLAG } from '../preload/agentEnv';
import { recoverStagedCodeTraces } from './stagedCodeTraces';
import { pauseAboveWallWarnings } from './impossibleFigures';
import { readHeapProfileFile, readRunAllocations } from './runAllocations';
import { inliningCaveat, summarizeAllocations } from '../heap/allocSummary';
import { withGcLink } from './allocGcLink';
import { EXACT_ALLOC_SITES_FLAGS } from '../preload/allocationSampler';
import { errorMessage, isErrno } from '../util/errors';
import { round } from '../util/stats';
import { summarizeDeoptAnalysis } from '../v8log/deoptSummary';
import { readAgentRecords } from './agentRecords';
import { buildProcessTable, type RunProcess } from './processTable';
import { readThreadRecord, threadFigures, threadWallMs, type ThreadFigures } from './threadFigures';
import { servingLabel } from '../gc/gcSummary';
import { listCodeTraces, listCpuProfiles, listV8Logs, type CpuProfileArtifact, type V8LogArtifact } from './runArtifacts';
import { buildTierHistory } from '../v8log/tierHistory';
import { readRunDeopts, type WindowMarks } from './runDeopts';
import type { RunLayout } from './runLayout';
import { sessionMode, type SessionRecord } from '../../shared/model/session';
import { ATTACH_NOTES } from './attachNotes';
import { attachedToGcEvents, readAttachedGcEvents } from './gcEventsFile';
import { outsideWindowNote, sessionWindow, splitByWindow, windowWallMs } from './attachWindow';
import { openRegularFile } from '../util/files';
import { openRunFile, readRunText, readableArtifacts } from './runFiles';
import { readLoadRecord } from './runRecords';
import { v8LensGcEvents, withoutEvents } from './v8LensGcs';
import { impossibleGcEvents } from './impossibleGcs';
import { helperMsInWindow } from './helperGcWindow';
import { runPrediction } from './runPrediction';
import { readSurvivorsPass } from './runSurvivors';
import { namePretenuredSites } from './pretenuredSites';
import { buildSelfCheck, deoptCoverageAfterCheck, gcUnreadable } from './selfCheck';
import { functionPlaceKey, scriptCalleesOf, scriptFramesOf } from '../cpu/cpuModel';
import { v8LensScripts, type IsV8LensScript } from '../cpu/v8LensFrames';
import { PRELOAD_BUNDLE_FILE } from '../launcher/bundledScripts';
import type { ScriptFrames } from '../heap/resolvePositions';
import { semiSpaceAskedOf } from '../flags/semiSpaceAsked';

/** GC data already in memory from a live capture, so the trace file need not be read back. */
export interface LiveGcData {
  events: readonly GcEvent[];
  unparsedLines: number;
  /** What the trace held by its raw shape (the self-check); absent: its GC lines were `events` and `unparsedLines`. */
  raw?: GcRawCounts;
  /** V8's pretenuring decisions read beside the events; absent from callers that did not read them. */
  pretenuring?: PretenuringSummary;
}

/**
 * Turns a run folder's raw artifacts into the summary. Each part is independent: a missing or
 * broken artifact becomes a warning and the other parts are still reported. A run may have several
 * processes and threads (see processTable.ts): the top-level figures cover all of them but npm's own,
 * and `processes` gives each one's share.
 */
export async function analyzeRun(layout: RunLayout, session: SessionRecord | null, liveGc?: LiveGcData): Promise<Summary> {
  const warnings: string[] = [...(session?.launch.limitations ?? [])];
  if (session && sessionMode(session) === 'attach') return analyzeAttachedRun(layout, session, liveGc, warnings);
  const capture = session?.flags.capture ?? { cpu: true, gc: true, deopts: true };
  // V8 Lens was killed before it collected the run (the report marks such a run 'interrupted' first):
  // its staged code traces are still outside the folder.
  if (session?.status === 'running' || session?.status === 'interrupted') {
    const recovered = await recoverStagedCodeTraces(layout, session);
    if (recovered) warnings.push(recovered);
  }
  // Each reader's warnings apart, so that their order does not depend on which finishes first.
  const said: string[][] = [[], [], [], [], []];
  const [records, profiles, logs, codeTraces, load] = await Promise.all([
    readAgentRecords(layout, said[0]),
    listCpuProfiles(layout).then((list) => readableArtifacts(layout.dir, list, said[1]!)),
    listV8Logs(layout).then((list) => readableArtifacts(layout.dir, list, said[2]!)).then(withBirthTimes),
    listCodeTraces(layout).then((list) => readableArtifacts(layout.dir, list, said[3]!)),
    readLoad(layout, said[4]!),
  ]);
  warnings.push(...said.flat());
  const polledThreads = await readThreadRecord(layout, warnings);
  const gcWarnings: string[] = [];
  const gcData = liveGc ?? (await readRunGcTrace(layout, gcWarnings));
  warnings.push(...gcWarnings);
  // A trace that is there but may not be read has said so already.
  if (!gcData && capture.gc && gcWarnings.length === 0) warnings.push('no GC trace was found in the run folder');
  // Lines V8 cannot have written (a target printing its own "GC lines") are left out, and said.
  const impossible = impossibleGcEvents(records, groupByIsolate(gcData?.events ?? []), session?.durationMs ?? null);
  if (impossible.warning) warnings.push(impossible.warning);
  const traced = impossible.events.size === 0 ? gcData?.events ?? [] : (gcData?.events ?? []).filter((e) => !impossible.events.has(e));
  const isolates = groupByIsolate(traced);
  const processes = buildProcessTable({
    records,
    launchedPid: session?.pid ?? null,
    cwd: session?.target.cwd ?? null,
    profiles,
    gcIsolates: isolates,
    logs,
    codeTraces,
  });
  // npm's own processes are listed, but they are not the app: the totals leave them out.
  const counted = processes.filter((p) => p.role !== 'npm');
  const app = processes.find((p) => p.isApp) ?? counted[0] ?? null;

  const cpuParts = await readCpuParts(layout, profiles, warnings, v8LensScriptsOf(session), session ? Date.parse(session.startedAt) : null);
  const threads = threadsOf(processes, cpuParts, polledThreads);
  const cpu = summarizeRunCpu(cpuParts, processes, app, capture.cpu && said[1]!.length === 0, warnings);
  if (cpu) {
    const npmProfiles = new Set(processes.filter((p) => p.role === 'npm').map((p) => p.profile));
    const inlined = inlinedLinesOf(cpuParts.filter((part) => !npmProfiles.has(part.artifact)).map((part) => part.inlinedLines), warnings);
    if (inlined) cpu.inlinedLines = inlined;
  }
  const gcRaw = gcData ? rawGcCounts(gcData) : null;
  // V8 printed GC events and none could be read: unknown, not "0 events".
  const gcLost = gcUnreadable(buildSelfCheck({ gc: gcRaw, deopts: null, optimizations: null }));
  if (gcLost) warnings.push(gcLost);
  // GCs that V8 Lens's own sampler made V8 run are kept apart: no figure of the app counts them.
  const v8LensGcs = v8LensGcEvents(counted, isolates);
  const appIsolates = withoutEvents(isolates, v8LensGcs);
  const appGcEvents = v8LensGcs.size === 0 ? traced : traced.filter((e) => !v8LensGcs.has(e));
  const gc = gcData && !gcLost && (gcData.events.length > 0 || capture.gc) ? summarizeGcOf(counted, appIsolates, app, gcData.unparsedLines, session, threads) : null;
  if (gc) {
    gc.pretenuring = pretenuringOf(gcData!, session);
    gc.causedByV8Lens = causedByV8Lens(v8LensGcs);
  }

  // With a CPU profile, the deopts come from the code traces (--trace-deopt-verbose), not the V8 log:
  // the preload switches it on in each process (older runs had it on the command line).
  // Without a (usable) session.json, the code traces that are there say it was.
  const codeTraceAsked = session !== null ? AGENT_ENV.codeTraceDir in session.launch.env || session.launch.argv.includes('--trace-deopt-verbose') : codeTraces.length > 0;
  let deoptCoverage: DeoptCoverage = 'not-collected';
  let deoptParts: Pick<Summary, 'deopts' | 'deoptFunctions' | 'optimizedFunctions'> = { deopts: [], deoptFunctions: [], optimizedFunctions: [] };
  let deoptCounts = new Map<string, number>();
  let tierHistory: Summary['tierHistory'] = null;
  let deoptRaw: Awaited<ReturnType<typeof readRunDeopts>>['raw'] = { deopts: null, optimizations: null };
  if (logs.length === 0 && codeTraces.length === 0) {
    if (capture.deopts && session?.launch.mode !== 'node-options') warnings.push('no V8 log was found, so deopts are unknown');
  } else if (codeTraceAsked && codeTraces.length === 0) {
    warnings.push('deopts: no code trace was written (the code-trace files are missing), so the deopts while the CPU profile ran are unknown');
  } else {
    try {
      const found = await readRunDeopts({
        processes: counted,
        logs,
        codeTraces,
        codeTraceAsked,
        profiledFunctions: cpu?.functions ?? [],
        window: windowMarks(load),
        preloadPath: preloadPathOf(session),
      });
      const { warnings: cut, ...parts } = summarizeDeoptAnalysis(found.analysis);
      warnings.push(...found.warnings, ...cut);
      deoptParts = parts;
      tierHistory = codeTraceAsked ? buildTierHistory(found.analysis, cpu?.functions ?? []) : null;
      deoptCoverage = found.coverage;
      deoptCounts = found.countByProcess;
      deoptRaw = found.raw;
    } catch (err) {
      warnings.push(`V8 log: ${errorMessage(err)}`);
    }
  }

  const selfCheck = buildSelfCheck({ gc: gcRaw, ...deoptRaw });
  deoptCoverage = deoptCoverageAfterCheck(selfCheck, deoptCoverage, warnings);

  if (load) refineGcInWindow(load, counted, threads);
  if (load?.gcInWindow && load.windowEpochMs) load.gcInWindow.helperMs = helperMsInWindow(counted, appIsolates, load.windowEpochMs);
  const appRecord = app?.record ?? null;
  if (appRecord && !appRecord.final) {
    warnings.push(`the target (pid ${appRecord.pid}) did not exit normally, so its figures end at ${new Date(appRecord.updatedAtMs).toISOString()}`);
  }
  if (load?.error) warnings.unshift(`load: ${load.error}`);
  if (load && load.failedRequests > 0) warnings.unshift(`load: the target lost ${load.failedRequests} request(s) in the measured window (errors, timeouts, non-2xx answers)`);
  const runStart = session ? Date.parse(session.startedAt) : null;
  const processSummaries = processes.map((p) => processSummary(p, cpuParts, appGcEvents, appIsolates, deoptCounts, runStart, session, capture.gc, threads.get(p)!));
  const allocAsked = capture.alloc === true;
  const scriptFrames = new Map(cpuParts.map((part) => [part.artifact.path, part.frames] as const));
  const allocations = allocAsked ? await readRunAllocations(layout, processes, load, { scriptFrames, preloadPath: preloadPathOf(session) }, gcData ? appIsolates : null, warnings) : null;
  if (allocations) {
    const exact = sampledExactSites(session);
    const callees = mergedCallees(cpuParts);
    const calleesOf = (f: AllocFunctionSummary) => [...(callees.get(functionPlaceKey(f.url, f.line, f.column)) ?? [])];
    const marked = (a: AllocSummary): AllocSummary => ({ ...a, exactSites: exact, inliningCaveat: inliningCaveat(a, exact, calleesOf) });
    for (const p of processSummaries) {
      const own = allocations.byProcess.get(p.id);
      p.alloc = own ? marked(own) : null;
    }
    if (allocations.alloc) allocations.alloc = marked(allocations.alloc);
  }
  // Each "not collected" with its own reason.
  const notAsked = runAllocMissing(allocAsked, session?.flags.preset ?? null);
  for (const p of processSummaries) {
    const own = processes.find((x) => x.id === p.id);
    if (!p.alloc && own) p.allocMissing = notAsked ?? processAllocMissing(own, load !== null);
  }
  warnings.push(...pauseAboveWallWarnings(gc, processSummaries));
  // A survivors pass (--survivors): the same target again, keeping what outlived a young GC.
  const survivors = await readSurvivorsPass(layout, { alloc: allocations?.alloc ?? null, load }, session, warnings);
  // The sites V8 tenured: the function each likely belongs to, and what tenuring cost.
  if (gc?.pretenuring) {
    const allocOf = (pid: number, isolate: string) => processSummaries.find((p) => p.pid === pid && p.gc?.isolate?.isolate === isolate)?.alloc ?? (processSummaries.length <= 1 ? allocations?.alloc ?? null : null);
    // V8 gives an inlined function's allocations to its caller: the app's functions the CPU profile saw under the owner.
    const callees = sampledExactSites(session) ? null : mergedCallees(cpuParts);
    const calleesOf = (f: { url: string; line: number; column: number }) => [...(callees?.get(functionPlaceKey(f.url, f.line, f.column)) ?? [])];
    gc.pretenuring = namePretenuredSites(gc.pretenuring, { isolates: appIsolates, allocOf, survivors, calleesOf });
  }
  return {
    schemaVersion: SUMMARY_SCHEMA_VERSION,
    source: { kind: 'run', path: layout.dir },
    cpu,
    gc,
    ...deoptParts,
    ...(tierHistory ? { tierHistory } : {}),
    deoptCoverage,
    ...(load ? { load } : {}),
    ...(processSummaries.length > 0 ? { processes: processSummaries } : {}),
    // null: not collected (or nothing usable was written: the warnings say why), never 0.
    alloc: allocations?.alloc ?? null,
    ...(allocations?.alloc ? {} : { allocMissing: notAsked ?? 'no process or thread wrote a usable heap profile (see the warnings)' }),
    ...(survivors ? { survivors } : {}),
    ...predictionOf(runPrediction({ processes: counted, isolates, v8LensGcs, load, gc, alloc: allocations?.alloc, survivors, wallMsOf: (p) => threads.get(p)?.wallMs ?? null })),
    ...(selfCheck ? { selfCheck } : {}),
    warnings,
  };
}

/** The prediction of a bigger young generation, or why there is none. */
function predictionOf(p: ReturnType<typeof runPrediction>): Pick<Summary, 'prediction' | 'predictionMissing'> {
  return { prediction: p.prediction, predictionMissing: p.reason };
}

/** The self-check's GC counts: the collector's, or (a caller that kept only events) the events and unparsed lines. */
function rawGcCounts(data: LiveGcData): GcRawCounts & { eventsRead: number } {
  const raw = data.raw ?? { gcLines: data.events.length + data.unparsedLines, nvpAllocatedLines: 0, nvpAllocatedRead: 0 };
  return { ...raw, eventsRead: data.events.length };
}

/** Whether inlining was off while allocations were sampled: asked for by name, or typed as its flags. */
function sampledExactSites(session: SessionRecord | null): boolean {
  const flags = session?.flags;
  if (!flags) return false;
  return flags.exactAllocSites === true || EXACT_ALLOC_SITES_FLAGS.every((f) => flags.extra.includes(f));
}

/** load.json: none when no load was driven (the usual case); one that cannot be used is a warning. */
async function readLoad(layout: RunLayout, warnings: string[]): Promise<LoadSummary | null> {
  const { value, problem } = await readLoadRecord(layout.dir);
  if (problem !== null) warnings.push(`${problem}; the load figures are left out`);
  return value;
}

/**
 * The load's GC share, now that the processes are known: the pause of the app's processes (npm's
 * left out) over their lives inside the window, added up. A process that lived through the window
 * without a GC counts with 0%, as it should. With worker threads, the share is of the threads that
 * served the requests (each process's main thread), as in summarizeRunGc; the counts and the pause
 * stay every isolate's (GC per 1k requests is all the GC the requests cost).
 */
function refineGcInWindow(load: LoadSummary, counted: readonly RunProcess[], threads: ReadonlyMap<RunProcess, RunThread>): void {
  const gc = load.gcInWindow;
  const window = load.windowEpochMs;
  if (!gc?.processes || !window) return;
  const windowMs = Math.max(0, window.end - window.start);
  const isOurs = (iso: { pid: number; isolate: string }) => counted.some((p) => p.pid === iso.pid && (p.isolate === iso.isolate || p.isolate === null));
  const figures = gc.processes.filter(isOurs);
  const lifeInWindow = (p: RunProcess): number => {
    const r = p.record;
    if (!r) return figures.some((f) => f.pid === p.pid && f.isolate === p.isolate) ? windowMs : 0;
    const end = threads.get(p)?.figures.endMs ?? null;
    const from = Math.max(window.start, r.processStartMs);
    const to = Math.min(window.end, r.final ? r.updatedAtMs : end ?? window.end);
    return Math.max(0, to - from);
  };
  const lives = counted.reduce((n, p) => n + lifeInWindow(p), 0);
  const totals = windowTotals(figures, Math.max(lives, windowMs));
  const serving = counted.filter((p) => p.threadId === 0);
  if (serving.length === 0 || serving.length === counted.length) {
    load.gcInWindow = { ...totals, processes: figures };
    return;
  }
  const servingFigures = figures.filter((f) => serving.some((p) => p.pid === f.pid && p.isolate === f.isolate));
  const servingLives = Math.max(serving.reduce((n, p) => n + lifeInWindow(p), 0), windowMs);
  const pauseMs = servingFigures.reduce((n, f) => n + f.pauseMs, 0);
  const shareOf = { processes: serving.map((p) => p.id), label: servingLabel(serving.map((p) => p.pid)), pauseMs: round(pauseMs, 3), wallMs: round(servingLives, 3) };
  load.gcInWindow = { ...totals, wallShare: servingLives > 0 ? round(Math.min(1, pauseMs / servingLives), 6) : 0, processes: figures, shareOf };
}

/** V8 Lens's own scripts in the run's processes (the preload it launched them with); null when unknown. */
export function v8LensScriptsOf(session: SessionRecord | null): IsV8LensScript | null {
  return v8LensScripts([preloadPathOf(session)]);
}

/**
 * V8 Lens's preload as the launch named it: `--require <path>` on the command line (the one named
 * like the bundle, when the user added a `--require` of their own), or in NODE_OPTIONS (npm scripts).
 */
export function preloadPathOf(session: SessionRecord | null): string | null {
  const argv = session?.launch.argv ?? [];
  const required = argv.flatMap((a, i) => (a === '--require' && i + 1 < argv.length ? [argv[i + 1]!] : []));
  const bundle = required.filter((p) => basename(p) === PRELOAD_BUNDLE_FILE);
  if (required.length > 0) return bundle[bundle.length - 1] ?? required[0]!;
  const nodeOptions = session?.launch.env.NODE_OPTIONS ?? '';
  for (const m of nodeOptions.matchAll(/--require=(?:"((?:[^"\\]|\\.)*)"|(\S+))/g)) {
    const path = m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!;
    if (basename(path) === PRELOAD_BUNDLE_FILE) return path;
  }
  return null;
}

function windowMarks(load: LoadSummary | null): WindowMarks | null {
  const w = load?.windowEpochMs;
  return w ? { startEpochMs: w.start, endEpochMs: w.end, traceBytes: load.codeTraceBytes ?? null } : null;
}

/** Birth times tell a process's main isolate (created first) from its worker threads' (see processTable.ts). */
async function withBirthTimes(logs: V8LogArtifact[]): Promise<(V8LogArtifact & { createdMs: number | null })[]> {
  return Promise.all(
    logs.map(async (log) => {
      const info = await stat(log.path).catch(() => null);
      return { ...log, createdMs: info && info.birthtimeMs > 0 ? info.birthtimeMs : null };
    }),
  );
}

/**
 * A run made by attaching to a running process: the CPU profile came over the inspector, the GC
 * events from an in-process observer (gc-events.jsonl), and there are no deopts (V8 logs them only
 * when the process was started with the flags).
 */
async function analyzeAttachedRun(layout: RunLayout, session: SessionRecord, liveGc: LiveGcData | undefined, warnings: string[]): Promise<Summary> {
  const reason = session.attach?.reason;
  if (reason && session.status !== 'finished') warnings.push(reason);
  const profiles = await readableArtifacts(layout.dir, await listCpuProfiles(layout), warnings);
  const parts = await readCpuParts(layout, profiles, warnings);
  const cpu = parts.length > 0 ? mergeCpuSummaries(parts, parts[0]!, parts.map(profileFile)) : null;
  if (!cpu && session.flags.capture.cpu) warnings.push(session.status === 'running' || session.status === 'interrupted' ? ATTACH_NOTES.interrupted : ATTACH_NOTES.noProfile);
  if (cpu) warnings.push(ATTACH_NOTES.inlining);

  let gc: GcSummary | null = null;
  let data = liveGc;
  if (!data) {
    let refused = false;
    const read = await readAttachedGcEvents(layout).catch((err: unknown) => {
      warnings.push(`${errorMessage(err)}; not read`);
      refused = true;
      return null;
    });
    if (read?.found) {
      const { events, badLines } = read;
      if (badLines > 0) warnings.push(`${basename(layout.gcEvents)}: ${badLines} line(s) could not be read (cut short?) and were skipped`);
      const window = sessionWindow(session.attach);
      const { inside, outside } = splitByWindow(events, window);
      const leftOut = window && outsideWindowNote(outside, window);
      if (leftOut) warnings.push(leftOut);
      data = { events: attachedToGcEvents(inside, session.pid ?? 0), unparsedLines: 0 };
    } else if (session.flags.capture.gc && !refused) {
      warnings.push(ATTACH_NOTES.noGcEvents);
    }
  }
  if (data) {
    gc = summarizeGc(data.events, { wallMs: windowWallMs(sessionWindow(session.attach)) ?? session.durationMs, semiSpaceRequestedMB: null, unparsedLines: data.unparsedLines, mainPid: session.pid });
    warnings.push(ATTACH_NOTES.gcSource);
  }
  warnings.push(ATTACH_NOTES.deopts);
  warnings.push(...pauseAboveWallWarnings(gc, []));
  const alloc = session.flags.capture.alloc === true ? await attachedAllocations(layout, session, parts, warnings) : null;
  // null: not collected (or nothing usable was taken: the warnings say why), never 0.
  return emptySummary({ kind: 'run', path: layout.dir }, { cpu, gc, warnings, alloc });
}

/**
 * The sampling heap profile attach took over CDP (garbage included), summarized like a launched
 * run's. Its GC comes from the in-process observer, which has no heap sizes to hold the bytes
 * against, so there is no GC link (null: not collected).
 */
async function attachedAllocations(layout: RunLayout, session: SessionRecord, parts: readonly ProfilePart[], warnings: string[]): Promise<AllocSummary | null> {
  const raw = session.attach?.allocations;
  if (!raw) {
    warnings.push('allocations: no heap profile was taken (see the notes above)');
    return null;
  }
  const cpuPath = parts[0]?.artifact.path ?? null;
  const scriptFrames = new Map(parts.map((part) => [part.artifact.path, part.frames] as const));
  const profile = await readHeapProfileFile(layout, raw.file, session.pid ?? 0, cpuPath, { scriptFrames, preloadPath: null }, warnings);
  if (!profile) return null;
  const summary = summarizeAllocations(profile, { durationMs: raw.endMs - raw.startMs, samplingIntervalBytes: raw.samplingIntervalBytes, requests: null, liveAtEndBytes: raw.liveAtEndBytes });
  const callees = mergedCallees(parts);
  const calleesOf = (f: AllocFunctionSummary) => [...(callees.get(functionPlaceKey(f.url, f.line, f.column)) ?? [])];
  return { ...withGcLink(summary, null), exactSites: false, inliningCaveat: inliningCaveat(summary, false, calleesOf) };
}

interface ProfilePart extends CpuPart {
  /** How its line ticks of inlined code were placed; null when the sources were not consulted. */
  inlinedLines: InlinedLineCounts | null;
  artifact: CpuProfileArtifact;
  /** Its scripts by V8's id: completes the same isolate's heap profile (heap/resolvePositions.ts). */
  frames: ScriptFrames;
  /** What each of the app's functions called (see scriptCalleesOf), to name what inlining may hide. */
  callees: Map<string, Set<string>>;
}

function mergedCallees(parts: readonly ProfilePart[]): Map<string, Set<string>> {
  const all = new Map<string, Set<string>>();
  for (const part of parts) {
    for (const [key, names] of part.callees) {
      const into = all.get(key) ?? new Set<string>();
      for (const name of names) into.add(name);
      all.set(key, into);
    }
  }
  return all;
}

/**
 * Each CPU profile, summarized. With `sourcesChangedAfterMs` (a launched run's start), the scripts'
 * sources are read so that line ticks of inlined code go to their own file (run/scriptOutlines.ts).
 */
async function readCpuParts(
  layout: RunLayout,
  artifacts: readonly CpuProfileArtifact[],
  warnings: string[],
  isV8LensScript: IsV8LensScript | null = null,
  sourcesChangedAfterMs: number | null | undefined = undefined,
): Promise<ProfilePart[]> {
  const parts: ProfilePart[] = [];
  const outlines: OutlineCache = new Map();
  const budget = { bytes: 0 };
  for (const artifact of artifacts) {
    try {
      const profile = parseCpuProfile(await readRunText(layout.dir, artifact.path, CPU_PROFILE_READ_LIMIT), artifact.file);
      const outlineOf = sourcesChangedAfterMs === undefined ? null : await scriptOutlinesOf(profile, outlines, budget, Number.isFinite(sourcesChangedAfterMs) ? sourcesChangedAfterMs : null, isV8LensScript);
      const model = buildCpuModel(profile, { isV8LensScript, outlineOf });
      parts.push({ artifact, pid: artifact.pid, summary: summarizeCpuModel(model, { profileFile: artifact.file }), inlinedLines: model.inlinedLines, frames: scriptFramesOf(profile), callees: scriptCalleesOf(profile) });
      for (const w of profile.warnings) warnings.push(`${artifact.file}: ${w}`);
    } catch (err) {
      warnings.push(errorMessage(err));
    }
  }
  return parts;
}

function profileFile(part: ProfilePart): CpuProfileFile {
  return { file: part.artifact.file, pid: part.artifact.pid, threadId: part.artifact.threadId, durationMs: part.summary.durationMs, sampleCount: part.summary.sampleCount };
}

/** Every profile but npm's own processes', summed (see mergeCpuSummaries.ts); `profiles` lists them all. */
function summarizeRunCpu(parts: readonly ProfilePart[], processes: readonly RunProcess[], app: RunProcess | null, wanted: boolean, warnings: string[]): CpuSummary | null {
  if (parts.length === 0) {
    if (wanted) warnings.push('no CPU profile was written: Node writes it when the process exits normally, and this one was killed or crashed first');
    return null;
  }
  const npmProfiles = new Set(processes.filter((p) => p.role === 'npm').map((p) => p.profile));
  const included = parts.filter((p) => !npmProfiles.has(p.artifact));
  const use = included.length > 0 ? included : parts;
  const main = use.find((p) => p.artifact === app?.profile) ?? use.find((p) => p.artifact.threadId === 0) ?? use[0]!;
  return mergeCpuSummaries(use, main, parts.map(profileFile));
}

/** A thread's own CPU and wall time (see threadFigures.ts). */
interface RunThread {
  figures: ThreadFigures;
  wallMs: number | null;
}

function threadsOf(processes: readonly RunProcess[], cpuParts: readonly ProfilePart[], polled: Awaited<ReturnType<typeof readThreadRecord>>): Map<RunProcess, RunThread> {
  return new Map(
    processes.map((p) => {
      const part = cpuParts.find((c) => c.artifact === p.profile);
      // The profile's own length: its sampled time, V8 Lens's and the stretch before the first sample.
      const profileWall = part ? part.summary.durationMs + (part.summary.leftOut?.v8LensMs ?? 0) + (part.summary.leftOut?.beforeFirstSampleMs ?? 0) : null;
      const figures = threadFigures(p.record, polled);
      return [p, { figures, wallMs: threadWallMs(p.record, figures, profileWall) }];
    }),
  );
}

/** Each counted process's and thread's own isolate (npm's are left out); see summarizeRunGc. */
function summarizeGcOf(counted: readonly RunProcess[], isolates: readonly IsolateEvents[], app: RunProcess | null, unparsedLines: number, session: SessionRecord | null, threads: ReadonlyMap<RunProcess, RunThread>): GcSummary {
  const parts: RunGcPart[] = counted.map((p) => ({
    events: isolates.find((i) => i.pid === p.pid && i.isolate === p.isolate)?.events ?? [],
    wallMs: threads.get(p)?.wallMs ?? (p.isApp ? session?.durationMs ?? null : null),
    newSpaceMaxBytes: p.record?.newSpaceMaxBytes ?? null,
    thread: { id: p.id, pid: p.pid, serving: p.threadId === 0 },
  }));
  const main = app?.isolate ? { pid: app.pid, isolate: app.isolate } : null;
  return summarizeRunGc(parts, main, { semiSpaceRequestedMB: semiSpaceAskedOf(session, app?.record?.execArgv), unparsedLines });
}

function processSummary(
  p: RunProcess,
  cpuParts: readonly ProfilePart[],
  events: readonly GcEvent[],
  isolates: readonly IsolateEvents[],
  deoptCounts: Map<string, number>,
  runStart: number | null,
  session: SessionRecord | null,
  gcWanted: boolean,
  thread: RunThread,
): ProcessSummary {
  const cpuPart = cpuParts.find((c) => c.artifact === p.profile);
  const group = isolates.find((i) => i.pid === p.pid && i.isolate === p.isolate);
  const r = p.record;
  const since = (epoch: number | undefined) => (epoch === undefined || runStart === null ? null : round(epoch - runStart, 3));
  let gc: GcSummary | null = null;
  if (group || (gcWanted && events.length > 0 && r)) {
    gc = summarizeGc(group?.events ?? [], {
      wallMs: thread.wallMs,
      newSpaceMaxBytes: r?.newSpaceMaxBytes ?? null,
      semiSpaceRequestedMB: semiSpaceAskedOf(session, r?.execArgv),
      mainPid: p.pid,
    });
  }
  return {
    id: p.id,
    pid: p.pid,
    parentPid: p.parentPid,
    threadId: p.threadId,
    role: p.role,
    command: p.command,
    startMs: since(r?.processStartMs),
    endMs: r?.final ? since(r.updatedAtMs) : null,
    cpu: cpuPart
      ? {
          profile: cpuPart.artifact.file,
          sampledMs: cpuPart.summary.durationMs,
          sampleCount: cpuPart.summary.sampleCount,
          idleShare: cpuPart.summary.durationMs > 0 ? round(cpuPart.summary.pseudo.idleMs / cpuPart.summary.durationMs, 4) : 0,
          waitingShare: cpuPart.summary.durationMs > 0 ? round((cpuPart.summary.waitingMs ?? 0) / cpuPart.summary.durationMs, 4) : 0,
          threadCpuMs: thread.figures.cpuMs,
          threadCpuSource: thread.figures.source,
          wallMs: thread.wallMs === null ? null : round(thread.wallMs, 3),
          tid: thread.figures.tid,
        }
      : null,
    gc,
    deoptCount: deoptCounts.get(p.id) ?? null,
    maxRssMB: r && p.threadId === 0 && r.maxRssKB > 0 ? round(r.maxRssKB / 1024, 1) : null,
  };
}

/** The GCs V8 Lens caused, in brief; null when there were none. */
function causedByV8Lens(events: ReadonlySet<GcEvent>): GcSummary['causedByV8Lens'] {
  if (events.size === 0) return null;
  const byType: Record<string, number> = {};
  let pauseMs = 0;
  for (const e of events) {
    byType[e.type] = (byType[e.type] ?? 0) + 1;
    pauseMs += e.pauseMs;
  }
  return { events: events.size, pauseMs: round(pauseMs, 3), byType, why: 'the allocation sampler\'s stop (V8 collects all garbage before it hands over the profile)' };
}

/**
 * V8's pretenuring decisions when the run asked V8 for them (on the command line, or through the
 * preload for a NODE_OPTIONS launch); null for runs from before V8 Lens recorded them.
 */
function pretenuringOf(gcData: LiveGcData, session: SessionRecord | null): PretenuringSummary | null {
  const asked = session !== null && (session.launch.argv.includes(TRACE_PRETENURING_FLAG) || session.launch.env[AGENT_ENV.traceGc] !== undefined);
  if (!asked && (gcData.pretenuring?.linesSeen ?? 0) === 0) return null;
  return gcData.pretenuring ?? null;
}

/** The run's gc-trace.log; null when there is none or it may not be read (a warning says why). */
export async function readRunGcTrace(layout: RunLayout, warnings: string[]): Promise<LiveGcData | null> {
  let handle: FileHandle;
  try {
    handle = await openRunFile(layout.dir, layout.gcTrace);
  } catch (err) {
    if (!isErrno(err, 'ENOENT')) warnings.push(`${errorMessage(err)}; not read`);
    return null;
  }
  return readGcTrace(handle, basename(layout.gcTrace), warnings);
}

/** Streams a saved trace (it can be large for a long-running server); a cut last line is reported. */
export async function readGcTraceFile(path: string, warnings: string[]): Promise<LiveGcData> {
  return readGcTrace(await openRegularFile(path), basename(path), warnings);
}

async function readGcTrace(handle: FileHandle, name: string, warnings: string[]): Promise<LiveGcData> {
  const collector = await collectGcTraceFile(handle, name, warnings);
  return { events: collector.events, unparsedLines: collector.unparsedLines, raw: collector.rawCounts(), pretenuring: collector.pretenuring.summary() };
}
