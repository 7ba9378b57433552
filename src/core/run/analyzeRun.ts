import { createReadStream, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { basename } from 'node:path';
import { parseCpuProfile } from '../cpu/cpuProfileFormat';
import { summarizeCpu } from '../cpu/cpuSummary';
import { GcTraceCollector } from '../gc/gcTraceCollector';
import { summarizeGc } from '../gc/gcSummary';
import type { GcEvent } from '../gc/gcEvent';
import { semiSpaceMBFromNewSpace, type AgentRecord } from '../preload/agentRecord';
import { SUMMARY_SCHEMA_VERSION, emptySummary, type CpuProfileFile, type CpuSummary, type GcSummary, type LoadSummary, type Summary } from '../summary/types';
import { errorMessage } from '../util/errors';
import { analyzeCodeTrace, functionsFromProfile, readCodeTrace } from '../v8log/codeTraceDeopts';
import { readV8LogFiles } from '../v8log/v8LogReader';
import { summarizeDeoptAnalysis } from '../v8log/deoptSummary';
import { emptyCounters, mergeAnalyses } from '../v8log/mergeAnalyses';
import { chooseMainProcess, processWallMs, readAgentRecords } from './agentRecords';
import { listCpuProfiles, listV8Logs, type CpuProfileArtifact } from './runArtifacts';
import type { RunLayout } from './runLayout';
import { sessionMode, type SessionRecord } from './session';
import { ATTACH_NOTES } from '../attach/attachNotes';
import { attachedToGcEvents, readAttachedGcEvents } from '../attach/gcEventsFile';
import { outsideWindowNote, sessionWindow, splitByWindow, windowWallMs } from '../attach/attachWindow';
import { endsWithNewline } from '../util/files';

/** GC data already in memory from a live capture, so the trace file need not be read back. */
export interface LiveGcData {
  events: readonly GcEvent[];
  unparsedLines: number;
}

/**
 * Turns a run folder's raw artifacts into the summary. Each part is independent: a missing or
 * broken artifact becomes a warning and the other parts are still reported.
 */
export async function analyzeRun(layout: RunLayout, session: SessionRecord | null, liveGc?: LiveGcData): Promise<Summary> {
  const warnings: string[] = [...(session?.launch.limitations ?? [])];
  if (session && sessionMode(session) === 'attach') return analyzeAttachedRun(layout, session, liveGc, warnings);
  const records = await readAgentRecords(layout.agentDir);
  const main = chooseMainProcess(records, session?.pid ?? null);
  const capture = session?.flags.capture ?? { cpu: true, gc: true, deopts: true };

  const cpu = await analyzeCpu(layout, main, capture.cpu, warnings);
  const gc = await analyzeGc(layout, session, main, liveGc, capture.gc, warnings);
  // With a CPU profile, the deopts come from the code trace (--trace-deopt-verbose), not the V8 log.
  const codeTraceAsked = session?.launch.argv.includes('--trace-deopt-verbose') ?? false;
  const { deopts, deoptFunctions, optimizedFunctions, deoptCoverage } = await analyzeDeopts(layout, capture.deopts, codeTraceAsked, cpu?.functions ?? [], warnings);

  if (main && !main.final) {
    warnings.push(`the target (pid ${main.pid}) did not exit normally, so its figures end at ${new Date(main.updatedAtMs).toISOString()}`);
  }
  const load = await readLoad(layout);
  if (load?.error) warnings.unshift(`load: ${load.error}`);
  if (load && load.failedRequests > 0) warnings.unshift(`load: the target lost ${load.failedRequests} request(s) in the measured window (errors, timeouts, non-2xx answers)`);
  return { schemaVersion: SUMMARY_SCHEMA_VERSION, source: { kind: 'run', path: layout.dir }, cpu, gc, deopts, deoptFunctions, optimizedFunctions, deoptCoverage, ...(load ? { load } : {}), warnings };
}

async function readLoad(layout: RunLayout): Promise<LoadSummary | null> {
  try {
    return JSON.parse(await readFile(layout.load, 'utf8')) as LoadSummary;
  } catch {
    return null; // no load was driven (the usual case), or the file was cut short
  }
}

/**
 * A run made by attaching to a running process: the CPU profile came over the inspector, the GC
 * events from an in-process observer (gc-events.jsonl), and there are no deopts (V8 logs them only
 * when the process was started with the flags).
 */
async function analyzeAttachedRun(layout: RunLayout, session: SessionRecord, liveGc: LiveGcData | undefined, warnings: string[]): Promise<Summary> {
  const reason = session.attach?.reason;
  if (reason && session.status !== 'finished') warnings.push(reason);
  const cpu = await analyzeCpu(layout, null, false, warnings);
  if (!cpu && session.flags.capture.cpu) warnings.push(ATTACH_NOTES.noProfile);
  if (cpu) warnings.push(ATTACH_NOTES.inlining);

  let gc: GcSummary | null = null;
  let data = liveGc;
  if (!data) {
    if (existsSync(layout.gcEvents)) {
      const { events, badLines } = await readAttachedGcEvents(layout.gcEvents);
      if (badLines > 0) warnings.push(`${basename(layout.gcEvents)}: ${badLines} line(s) could not be read (cut short?) and were skipped`);
      const window = sessionWindow(session.attach);
      const { inside, outside } = splitByWindow(events, window);
      const leftOut = window && outsideWindowNote(outside, window);
      if (leftOut) warnings.push(leftOut);
      data = { events: attachedToGcEvents(inside, session.pid ?? 0), unparsedLines: 0 };
    } else if (session.flags.capture.gc) {
      warnings.push(ATTACH_NOTES.noGcEvents);
    }
  }
  if (data) {
    gc = summarizeGc(data.events, { wallMs: windowWallMs(sessionWindow(session.attach)) ?? session.durationMs, semiSpaceRequestedMB: null, unparsedLines: data.unparsedLines, mainPid: session.pid });
    warnings.push(ATTACH_NOTES.gcSource);
  }
  warnings.push(ATTACH_NOTES.deopts);
  return emptySummary({ kind: 'run', path: layout.dir }, { cpu, gc, warnings });
}

async function analyzeCpu(layout: RunLayout, main: AgentRecord | null, wanted: boolean, warnings: string[]): Promise<CpuSummary | null> {
  const artifacts = await listCpuProfiles(layout);
  if (artifacts.length === 0) {
    if (wanted) warnings.push('no CPU profile was written: Node writes it when the process exits normally, and this one was killed or crashed first');
    return null;
  }
  const primary = pickMainProfile(artifacts, main?.pid ?? null);
  const profiles: CpuProfileFile[] = [];
  let summary: Omit<CpuSummary, 'profiles'> | null = null;
  for (const artifact of artifacts) {
    try {
      const profile = parseCpuProfile(await readFile(artifact.path, 'utf8'), artifact.file);
      const part = summarizeCpu(profile, { profileFile: artifact.file });
      for (const w of profile.warnings) warnings.push(`${artifact.file}: ${w}`);
      profiles.push({ file: artifact.file, pid: artifact.pid, threadId: artifact.threadId, durationMs: part.durationMs, sampleCount: part.sampleCount });
      if (artifact === primary) summary = part;
    } catch (err) {
      warnings.push(errorMessage(err));
    }
  }
  return summary ? { ...summary, profiles } : null;
}

function pickMainProfile(artifacts: CpuProfileArtifact[], mainPid: number | null): CpuProfileArtifact {
  return (
    artifacts.find((a) => a.pid === mainPid && a.threadId === 0) ??
    artifacts.find((a) => a.threadId === 0) ??
    artifacts[0]!
  );
}

async function analyzeGc(
  layout: RunLayout,
  session: SessionRecord | null,
  main: AgentRecord | null,
  live: LiveGcData | undefined,
  wanted: boolean,
  warnings: string[],
): Promise<GcSummary | null> {
  let data = live;
  if (!data) {
    if (!existsSync(layout.gcTrace)) {
      if (wanted) warnings.push('no GC trace was found in the run folder');
      return null;
    }
    data = await readGcTraceFile(layout.gcTrace, warnings);
  }
  if (data.events.length === 0 && !wanted) return null;
  return summarizeGc(data.events, {
    wallMs: main ? processWallMs(main) : session?.durationMs ?? null,
    semiSpaceMB: main && main.newSpaceMaxBytes > 0 ? semiSpaceMBFromNewSpace(main.newSpaceMaxBytes) : null,
    semiSpaceRequestedMB: session?.flags.semiSpaceMB ?? null,
    unparsedLines: data.unparsedLines,
    mainPid: main?.pid ?? session?.pid ?? null,
  });
}

/** Streams a saved trace (it can be large for a long-running server); a cut last line is reported. */
export async function readGcTraceFile(path: string, warnings: string[]): Promise<LiveGcData> {
  const collector = new GcTraceCollector();
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let lastKind: string | null = null;
  for await (const line of lines) lastKind = collector.addLine(line);
  if (lastKind !== null && lastKind !== 'gc' && !(await endsWithNewline(path))) {
    warnings.push(`${basename(path)}: the last line is cut short (the file was truncated); it was skipped`);
  }
  return { events: collector.events, unparsedLines: collector.unparsedLines };
}


type DeoptParts = Pick<Required<Summary>, 'deopts' | 'deoptFunctions' | 'optimizedFunctions' | 'deoptCoverage'>;

async function analyzeDeopts(
  layout: RunLayout,
  wanted: boolean,
  /** The target was told to write its deopts to the code trace: without that file they are unknown. */
  codeTraceAsked: boolean,
  profiledFunctions: CpuSummary['functions'],
  warnings: string[],
): Promise<DeoptParts> {
  const none: DeoptParts = { deopts: [], deoptFunctions: [], optimizedFunctions: [], deoptCoverage: 'not-collected' };
  const logs = await listV8Logs(layout);
  if (logs.length === 0) {
    if (wanted) warnings.push('no V8 log was found, so deopts are unknown');
    return none;
  }
  try {
    let analysis = await readV8LogFiles(logs);
    // With a CPU profile running, V8 logs no code-deopt events nor JS code-creation; the verbose code
    // trace has the deopts, and (with --trace-opt) the optimizations, ordered but without times.
    const hasCodeTrace = existsSync(layout.codeTraces);
    const traceLost = analysis.deopts.length === 0 && codeTraceAsked && !hasCodeTrace;
    if (traceLost) {
      warnings.push(`deopts: no code trace was written (${basename(layout.codeTraces)} is missing), so the deopts while the CPU profile ran are unknown`);
    }
    if (analysis.deopts.length === 0 && hasCodeTrace) {
      const trace = await readCodeTrace(layout.codeTraces);
      if (trace.deopts.length > 0 || trace.optimizations.length > 0) {
        const traced = analyzeCodeTrace(trace, [...analysis.functions, ...functionsFromProfile(profiledFunctions)], layout.codeTraces);
        analysis = mergeAnalyses([analysis, { v8Version: null, isolates: [], functions: traced.functions, deopts: traced.deopts, counters: emptyCounters() }]);
      }
    }
    const { warnings: cut, ...parts } = summarizeDeoptAnalysis(analysis);
    warnings.push(...cut);
    return { ...parts, deoptCoverage: traceLost ? 'not-collected' : 'collected' };
  } catch (err) {
    warnings.push(`V8 log: ${errorMessage(err)}`);
    return none;
  }
}
