import { open, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { CpuProfileError } from '../cpu/cpuProfileError';
import { CPU_PROFILE_READ_LIMIT, parseCpuProfile } from '../cpu/parseCpuProfile';
import { buildCpuModel, type CpuModel } from '../cpu/cpuModel';
import { summarizeCpuModel } from '../cpu/cpuSummary';
import { summarizeGc } from '../gc/gcSummary';
import { ISOLATE_PREFIX_SOURCE } from '../gc/isolatePrefix';
import { analyzeRun, readGcTraceFile } from '../run/analyzeRun';
import { runLayout } from '../run/runLayout';
import { readSessionRecord, readSummaryRecord } from '../run/runRecords';
import { emptySummary, type Summary } from '../../shared/model/summary';
import { UserError, errorMessage, isErrno } from '../util/errors';
import { FileRefusedError, notRegularFile, readRegularFile } from '../util/files';
import { readV8LogFiles } from '../v8log/v8LogReader';
import { summarizeDeoptAnalysis } from '../v8log/deoptSummary';
import { EXIT } from '../util/exitCodes';

export type ArtifactKind = 'cpuprofile' | 'gc-trace' | 'v8-log';

/**
 * The summary for what `v8-lens report` (or "Open Profile or Run Folder…") is given: a run folder,
 * or one artifact made elsewhere. Bad input becomes a one-line UserError; partial input gives partial
 * results with a warning.
 */
export async function loadReport(target: string): Promise<Summary> {
  return (await loadReportAndProfile(target)).summary;
}

/**
 * The same, with the CPU model when the target is a `.cpuprofile`: the report's flame graph is built
 * from it, so the file is read and parsed once.
 */
export async function loadReportAndProfile(target: string): Promise<{ summary: Summary; cpuModel: CpuModel | null }> {
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
    case 'gc-trace':
      return { summary: await summarizeGcTraceFile(path), cpuModel: null };
    case 'v8-log':
      return { summary: await summarizeV8LogFile(path), cpuModel: null };
    default:
      throw new UserError(`${target} is not a .cpuprofile, a GC trace (--trace-gc output) or a V8 log (--logfile)`);
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
  if (saved.value) return saved.value;
  const session = await readSessionRecord(path);
  const hasArtifacts = await Promise.all(
    [layout.cpuDir, layout.gcTrace, layout.v8LogDir].map((p) => stat(p).then(() => true, () => false)),
  );
  if (!session.value && !hasArtifacts.some(Boolean)) {
    const problem = saved.problem ?? session.problem;
    if (problem) throw new UserError(`${shown}: ${problem}, and the folder has no artifacts to rebuild the report from`);
    throw new UserError(`${shown} is not a V8 Lens run folder (no session.json, summary.json or artifacts in it)`);
  }
  const summary = await analyzeRun(layout, session.value);
  const problems = [
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
  try {
    const buf = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    head = buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
  // GC trace lines start with `[` too, so they are recognised before JSON.
  if (GC_TRACE_LINE.test(head)) return 'gc-trace';
  if (/^(v8-version|code-creation|code-deopt|shared-library|profiler|tick),/m.test(head)) return 'v8-log';
  const trimmed = head.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return 'cpuprofile';
  return null;
}

function singleSummary(kind: Summary['source']['kind'], path: string, parts: Partial<Summary>): Summary {
  return emptySummary({ kind, path }, parts);
}

async function summarizeCpuProfileFile(path: string): Promise<{ summary: Summary; cpuModel: CpuModel }> {
  const text = await readRegularFile(path, CPU_PROFILE_READ_LIMIT).catch((err: unknown) => {
    throw new UserError(err instanceof FileRefusedError ? err.message : `cannot read ${basename(path)}: ${errorMessage(err)}`);
  });
  try {
    const profile = parseCpuProfile(text, basename(path));
    const cpuModel = buildCpuModel(profile);
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

async function summarizeGcTraceFile(path: string): Promise<Summary> {
  const warnings: string[] = [];
  const data = await readGcTraceFile(path, warnings);
  if (data.events.length === 0) throw new UserError(`${basename(path)}: no GC events found (is it --trace-gc output?)`);
  warnings.push('a GC trace alone has no process wall time: GC share is over the time the trace spans');
  const gc = summarizeGc(data.events, { unparsedLines: data.unparsedLines });
  return singleSummary('gc-trace', path, { gc, warnings });
}

async function summarizeV8LogFile(path: string): Promise<Summary> {
  const analysis = await readV8LogFiles([path]);
  const { warnings, ...parts } = summarizeDeoptAnalysis(analysis);
  return singleSummary('v8-log', path, { ...parts, warnings, deoptCoverage: 'collected' });
}

