import { open, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { CpuProfileError } from '../cpu/cpuProfileError';
import { CPU_PROFILE_READ_LIMIT, parseCpuProfileBytes } from '../cpu/parseCpuProfile';
import { buildCpuModel, type CpuModel } from '../cpu/cpuModel';
import { summarizeCpuModel } from '../cpu/cpuSummary';
import { summarizeGcTable } from '../gc/gcSummary';
import { ISOLATE_PREFIX_SOURCE } from '../gc/isolatePrefix';
import { analyzeRun, v8LensScriptsOf } from '../run/analyzeRun';
import { collectGcTraceFile } from '../gc/gcTraceFile';
import { v8LensScriptsBeside, withoutV8LensFunctions } from './v8LensLeftOut';
import { runLayout } from '../run/runLayout';
import { interruptedWarning, markInterrupted, ownerGone } from '../run/runOwner';
import { readSessionRecord, readSummaryRecord } from '../run/runRecords';
import { emptySummary, type Summary } from '../../shared/model/summary';
import { UserError, errorMessage, isErrno } from '../util/errors';
import { FileRefusedError, notRegularFile, openRegularFile, readRegularFile, readRegularFileBytes } from '../util/files';
import { readV8LogFiles } from '../v8log/v8LogReader';
import { summarizeDeoptAnalysis } from '../v8log/deoptSummary';
import { buildSelfCheck, deoptCoverageAfterCheck } from '../run/selfCheck';
import { FORMAT_NOT_UNDERSTOOD } from '../../shared/selfCheckText';
import { EXIT } from '../util/exitCodes';
import { summarizeAllocations } from '../heap/allocSummary';
import type { HeapProfile } from '../heap/heapProfileFormat';
import { parseHeapProfile } from '../heap/parseHeapProfile';
import { looksLikeGzip, readPprof } from '../pprof/readPprof';

export type ArtifactKind = 'cpuprofile' | 'heapprofile' | 'pprof' | 'gc-trace' | 'v8-log';

/**
 * The summary for what `v8-lens report` (or "Open Profile or Run Folder…") is given: a run folder,
 * or one artifact made elsewhere. Bad input becomes a one-line UserError; partial input gives partial
 * results with a warning.
 */
export async function loadReport(target: string): Promise<Summary> {
  return (await loadReportAndProfile(target)).summary;
}

export interface LoadedReport {
  summary: Summary;
  /** The CPU model of a `.cpuprofile` or a pprof time profile: the report's flame graph is built from it, so the file is parsed once. */
  cpuModel: CpuModel | null;
  /** The call tree of a `.heapprofile` or a pprof heap profile, for the allocation flame graph. */
  heapProfile?: HeapProfile | null;
  /** The CPU model has no time order (pprof keeps totals): no time-ordered views. */
  timeless?: boolean;
}

/** The same, with the profile the report's flame graphs are built from (see LoadedReport). */
export async function loadReportAndProfile(target: string): Promise<LoadedReport> {
  const path = resolve(target);
  const info = await stat(path).catch((err: unknown) => {
    if (isErrno(err, 'ENOENT')) throw new UserError(`no such file or folder: ${target}`, EXIT.usage);
    throw new UserError(`cannot read ${target}: ${errorMessage(err)}`, EXIT.usage);
  });
  if (info.isDirectory()) return { summary: await loadRunFolder(path, target), cpuModel: null };
  const notFile = notRegularFile(info);
  if (notFile) throw new UserError(`${target} is ${notFile}, not a file to report on`);
  if (info.size === 0) throw new UserError(`${target} is empty`);

  const kind = await sniffArtifact(path);
  switch (kind) {
    case 'cpuprofile':
      return summarizeCpuProfileFile(path);
    case 'heapprofile':
      return summarizeHeapProfileFile(path);
    case 'pprof':
      return summarizePprofFile(path);
    case 'gc-trace':
      return { summary: await summarizeGcTraceFile(path), cpuModel: null };
    case 'v8-log':
      return { summary: await summarizeV8LogFile(path), cpuModel: null };
    default:
      throw new UserError(`${target} is not a .cpuprofile, a .heapprofile, a pprof profile, a GC trace (--trace-gc output) or a V8 log (--logfile)`);
  }
}

/**
 * A run folder's summary.json; without one (a run still being captured), or with one that cannot be
 * used (cut short by a crash, or not a summary at all: the folder is data from anywhere), the
 * summary is rebuilt from the raw artifacts, with one line saying why.
 */
async function loadRunFolder(path: string, shown: string): Promise<Summary> {
  const layout = runLayout(path);
  const saved = await readSummaryRecord(path);
  const session = await readSessionRecord(path);
  if (saved.value) return withoutV8LensFunctions(saved.value, v8LensScriptsOf(session.value));
  const hasArtifacts = await Promise.all(
    [layout.cpuDir, layout.gcTrace, layout.v8LogDir].map((p) => stat(p).then(() => true, () => false)),
  );
  if (!session.value && !hasArtifacts.some(Boolean)) {
    const problem = saved.problem ?? session.problem;
    if (problem) throw new UserError(`${shown}: ${problem}, and the folder has no artifacts to rebuild the report from`);
    throw new UserError(`${shown} is not a V8 Lens run folder (no session.json, summary.json or artifacts in it)`);
  }
  // 'running' with its V8 Lens gone: the capture was interrupted; the folder says so from now on.
  let sessionValue = session.value;
  if (sessionValue && ownerGone(sessionValue)) sessionValue = await markInterrupted(layout, sessionValue);
  const summary = await analyzeRun(layout, sessionValue);
  const problems = [
    ...(sessionValue?.status === 'interrupted' ? [interruptedWarning(sessionValue)] : []),
    ...(saved.problem ? [`${saved.problem}; the report is rebuilt from the run's files`] : []),
    ...(session.problem ? [`${session.problem}; the run is read without it (how it was launched is unknown)`] : []),
  ];
  summary.warnings.unshift(...problems);
  return summary;
}

const GC_TRACE_LINE = new RegExp(`${ISOLATE_PREFIX_SOURCE} +\\d+ ms: `, 'm');

/** Decides by content, not by file name: profiles from other tools have all kinds of names. */
export async function sniffArtifact(path: string): Promise<ArtifactKind | null> {
  const handle = await open(path, 'r');
  let head: string;
  let bytes: Buffer;
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    bytes = buf.subarray(0, bytesRead);
    head = bytes.toString('utf8');
  } finally {
    await handle.close();
  }
  // pprof is gzipped protobuf as the fleet's profilers store it; plain protobuf is known by its name.
  if (looksLikeGzip(bytes) || /\.(pb|pprof|prof)$/i.test(path)) return 'pprof';
  // GC trace lines start with `[` too, so they are recognised before JSON.
  if (GC_TRACE_LINE.test(head)) return 'gc-trace';
  if (/^(v8-version|code-creation|code-deopt|shared-library|profiler|tick),/m.test(head)) return 'v8-log';
  const trimmed = head.trimStart();
  // A heap profile's nodes carry selfSize; a legacy CPU profile (also a `head` tree) hitCount.
  if (/^\{\s*"head"\s*:/.test(trimmed) && /"selfSize"\s*:/.test(head) && !/"hitCount"\s*:/.test(head)) return 'heapprofile';
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return 'cpuprofile';
  return null;
}

function singleSummary(kind: Summary['source']['kind'], path: string, parts: Partial<Summary>): Summary {
  return emptySummary({ kind, path }, parts);
}

/** A gzipped pprof of a big service is a few MB; its protobuf is decoded in memory. */
const PPROF_READ_LIMIT = { maxBytes: 256 * 1024 * 1024, why: 'a pprof larger than 256 MB is not a profile V8 Lens can hold' } as const;

async function summarizeCpuProfileFile(path: string): Promise<{ summary: Summary; cpuModel: CpuModel }> {
  const bytes = await readRegularFileBytes(path, CPU_PROFILE_READ_LIMIT).catch((err: unknown) => {
    throw new UserError(err instanceof FileRefusedError ? err.message : `cannot read ${basename(path)}: ${errorMessage(err)}`);
  });
  try {
    const profile = parseCpuProfileBytes(bytes, basename(path));
    const cpuModel = buildCpuModel(profile, { isV8LensScript: await v8LensScriptsBeside(path) });
    const cpu = summarizeCpuModel(cpuModel, { profileFile: basename(path) });
    const summary = singleSummary('cpuprofile', path, {
      cpu: { ...cpu, profiles: [{ file: basename(path), pid: null, threadId: null, durationMs: cpu.durationMs, sampleCount: cpu.sampleCount }] },
      warnings: profile.warnings,
    });
    return { summary, cpuModel };
  } catch (err) {
    if (err instanceof CpuProfileError) throw new UserError(err.message);
    throw err;
  }
}

async function summarizeHeapProfileFile(path: string): Promise<LoadedReport> {
  const text = await readRegularFile(path, CPU_PROFILE_READ_LIMIT).catch((err: unknown) => {
    throw new UserError(err instanceof FileRefusedError ? err.message : `cannot read ${basename(path)}: ${errorMessage(err)}`);
  });
  const profile = parseHeapProfile(text, basename(path));
  // A heap profile from elsewhere (--heap-prof, DevTools) dropped what the GC collected, and says neither its interval nor its time.
  const alloc = { ...summarizeAllocations(profile, { durationMs: null, samplingIntervalBytes: 0, requests: null, liveAtEndBytes: null }), liveOnly: true };
  const warnings = [...profile.warnings, 'a heap profile on its own: it keeps the objects still alive when it was taken (not the garbage), and no sampling interval or time'];
  return { summary: singleSummary('heapprofile', path, { alloc, warnings }), cpuModel: null, heapProfile: profile };
}

async function summarizePprofFile(path: string): Promise<LoadedReport> {
  const name = basename(path);
  const bytes = await readRegularFileBytes(path, PPROF_READ_LIMIT).catch((err: unknown) => {
    throw new UserError(err instanceof FileRefusedError ? err.message : `cannot read ${name}: ${errorMessage(err)}`);
  });
  const content = await readPprof(bytes, name);
  if (content.kind === 'cpu') {
    const cpuModel = buildCpuModel(content.profile);
    const cpu = summarizeCpuModel(cpuModel, { profileFile: name });
    // The model has one sample per stack: the file's own count and period say how V8 sampled.
    if (content.sampleCount !== null) cpu.sampleCount = content.sampleCount;
    if (content.sampleIntervalMs !== null) cpu.sampleIntervalMs = content.sampleIntervalMs;
    const summary = singleSummary('pprof', path, {
      cpu: { ...cpu, profiles: [{ file: name, pid: null, threadId: null, durationMs: cpu.durationMs, sampleCount: cpu.sampleCount }] },
      warnings: [content.note, ...content.warnings],
    });
    return { summary, cpuModel, timeless: true };
  }
  const alloc = {
    ...summarizeAllocations(content.profile, { durationMs: null, samplingIntervalBytes: content.samplingIntervalBytes ?? 0, requests: null, liveAtEndBytes: null }),
    ...(content.inUse ? { liveOnly: true } : {}),
  };
  return { summary: singleSummary('pprof', path, { alloc, warnings: [content.note, ...content.warnings] }), cpuModel: null, heapProfile: content.profile };
}

async function summarizeGcTraceFile(path: string): Promise<Summary> {
  const warnings: string[] = [];
  const collector = await collectGcTraceFile(await openRegularFile(path), basename(path), warnings);
  const events = collector.table.length;
  const selfCheck = buildSelfCheck({ gc: { ...collector.rawCounts(), eventsRead: events }, deopts: null, optimizations: null });
  if (events === 0) {
    const seen = selfCheck?.gcLines?.seen ?? 0;
    throw new UserError(seen > 0 ? `${basename(path)}: V8 printed ${seen} GC lines and V8 Lens could read none (${FORMAT_NOT_UNDERSTOOD})` : `${basename(path)}: no GC events found (is it --trace-gc output?)`);
  }
  warnings.push('a GC trace alone has no process wall time: GC share is over the time the trace spans');
  // From the columns, not an object per event: a day-long log has millions of them.
  const gc = summarizeGcTable(collector.table, { unparsedLines: collector.unparsedLines });
  return singleSummary('gc-trace', path, { gc, warnings, ...(selfCheck ? { selfCheck } : {}) });
}

async function summarizeV8LogFile(path: string): Promise<Summary> {
  const analysis = await readV8LogFiles([path]);
  const { warnings, ...parts } = summarizeDeoptAnalysis(analysis);
  const selfCheck = buildSelfCheck({ gc: null, deopts: { seen: analysis.counters.deoptEvents, read: analysis.deopts.length }, optimizations: null });
  const deoptCoverage = deoptCoverageAfterCheck(selfCheck, 'collected', warnings);
  return singleSummary('v8-log', path, { ...parts, warnings, deoptCoverage, ...(selfCheck ? { selfCheck } : {}) });
}

