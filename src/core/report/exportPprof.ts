/**
 * `v8-lens export … --pprof`: a run folder, a `.cpuprofile` or a `.heapprofile` as a gzipped pprof
 * for continuous profilers (Pyroscope, Parca, Datadog, Cloud Profiler) and `go tool pprof`. CPU:
 * `samples/count` and `cpu/nanoseconds` (the default); allocations: `alloc_space/bytes` (a heap
 * profile from elsewhere kept only live objects: `inuse_space`; why no object counts: heapToPprof.ts). The figures
 * are the report's own (same weighting), so `go tool pprof -top` agrees with `v8-lens report`.
 */
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { zlib } from '../util/lazyBuiltins';
import type { SessionRecord } from '../../shared/model/session';
import type { Summary } from '../../shared/model/summary';
import { buildCpuModel, type CpuModel } from '../cpu/cpuModel';
import { CPU_PROFILE_READ_LIMIT, parseCpuProfile } from '../cpu/parseCpuProfile';
import { scriptFramesOf } from '../cpu/cpuModel';
import { parseHeapProfile } from '../heap/parseHeapProfile';
import type { HeapProfile } from '../heap/heapProfileFormat';
import { CPU_SAMPLE_TYPES, addCpuSamples } from '../pprof/cpuToPprof';
import { addHeapSamples, heapSampleTypes } from '../pprof/heapToPprof';
import { PprofBuilder, type PprofLabel } from '../pprof/pprofBuilder';
import { readSessionRecord } from '../run/runRecords';
import { RUN_FILE_LIMITS, readRunText, runPath } from '../run/runFiles';
import { readRunHeapProfiles } from '../run/runHeapProfiles';
import { runLayout } from '../run/runLayout';
import { UserError, errorMessage } from '../util/errors';
import { EXIT } from '../util/exitCodes';
import { FileRefusedError, readRegularFile } from '../util/files';
import { TOOL_VERSION } from '../util/version';
import { loadReport } from './loadReport';
import { v8LensScriptsBeside } from './v8LensLeftOut';
import { v8LensScriptsOf } from '../run/analyzeRun';

export type ExportKind = 'cpu' | 'alloc';

export interface PprofExport {
  /** The gzipped profile. */
  bytes: Buffer;
  kind: ExportKind;
  /** "samples/count, cpu/nanoseconds". */
  sampleTypes: string;
  /** pprof samples written (one per distinct stack and process). */
  samples: number;
  /** The other kind the input also holds, for a hint; null when it has one kind only. */
  alsoHas: ExportKind | null;
  warnings: string[];
}

export async function exportPprof(target: string, wanted: ExportKind | null): Promise<PprofExport> {
  const path = resolve(target);
  const info = await stat(path).catch(() => {
    throw new UserError(`no such file or folder: ${target}`, EXIT.usage);
  });
  return info.isDirectory() ? exportRun(path, target, wanted) : exportFile(path, target, wanted);
}

// -------------------------------------------------------------------------------------- run folders

async function exportRun(dir: string, shown: string, wanted: ExportKind | null): Promise<PprofExport> {
  const summary = await loadReport(dir);
  const session = (await readSessionRecord(dir)).value;
  const layout = runLayout(dir);
  const warnings: string[] = [];
  const processes = (summary.processes ?? []).filter((p) => p.role !== 'npm');
  const cpuProcesses = processes.filter((p) => p.cpu);
  const hasCpu = cpuProcesses.length > 0 || summary.cpu?.profile !== undefined;
  const hasAlloc = processes.some((p) => p.alloc) || summary.alloc !== null && summary.alloc !== undefined;
  const kind = chooseKind(wanted, hasCpu, hasAlloc, shown);
  const several = processes.length > 1;
  const labelsOf = (p: { pid: number; threadId: number | null; role: string }): PprofLabel[] =>
    several ? [{ key: 'pid', num: p.pid }, ...(p.threadId ? [{ key: 'thread', num: p.threadId }] : []), { key: 'process', str: p.role }] : [];
  const isV8LensScript = v8LensScriptsOf(session);
  const models = new Map<string, Promise<CpuModel>>();
  const modelOf = (file: string) => {
    let m = models.get(file);
    if (!m) {
      m = readRunText(dir, runPath(layout.cpuDir, file), RUN_FILE_LIMITS.cpuProfile).then((text) => buildCpuModel(parseCpuProfile(text, basename(file)), { isV8LensScript }));
      models.set(file, m);
    }
    return m;
  };
  const comments = runComments(summary, session, shown);

  if (kind === 'cpu') {
    const builder = new PprofBuilder(CPU_SAMPLE_TYPES, session?.target.cwd ?? null);
    const parts = cpuProcesses.length > 0 ? cpuProcesses.map((p) => ({ file: p.cpu!.profile, labels: labelsOf(p) })) : [{ file: summary.cpu!.profile!, labels: [] }];
    let durationUs = 0;
    let intervalUs = session?.flags.samplingIntervalUs ?? 0;
    const leftOut = { us: 0, samples: 0 };
    let waitingUs = 0;
    for (const part of parts) {
      const model = await modelOf(part.file).catch((err: unknown) => {
        warnings.push(`${part.file}: ${errorMessage(err)}; left out`);
        return null;
      });
      if (!model) continue;
      waitingUs += addCpuSamples(builder, model, part.labels);
      durationUs = Math.max(durationUs, model.durationUs);
      if (intervalUs === 0) intervalUs = model.sampleIntervalUs;
      leftOut.us += model.v8LensUs;
      leftOut.samples += model.v8LensSamples;
    }
    if (builder.sampleCount === 0) throw new UserError(`${shown}: no CPU profile of the run could be read${warnings.length ? ` (${warnings[0]})` : ''}`);
    if (leftOut.samples > 0) comments.push(v8LensComment(leftOut.us, leftOut.samples));
    if (waitingUs > 0) comments.push(waitingComment(waitingUs));
    const profile = builder.build({ period: { type: 'cpu', unit: 'nanoseconds', value: intervalUs * 1000 }, defaultSampleType: 'cpu', timeNanos: startNanos(session), durationNanos: durationUs * 1000, comments });
    return done(profile.encode(), 'cpu', builder.sampleCount, hasAlloc ? 'alloc' : null, warnings);
  }

  const heaps = await readRunHeapProfiles(layout, processes, session, warnings, (file) => modelOf(file).then((m) => scriptFramesOf(m.profile)));
  if (heaps.size === 0) throw new UserError(`${shown}: no heap profile of the run could be read${warnings.length ? ` (${warnings[0]})` : ''}`);
  const builder = new PprofBuilder(heapSampleTypes('alloc'), session?.target.cwd ?? null);
  let interval = 0;
  let durationMs = 0;
  for (const [id, heap] of heaps) {
    const p = processes.find((q) => q.id === id)!;
    addHeapSamples(builder, heap.profile, labelsOf(p));
    interval = heap.samplingIntervalBytes;
    durationMs = Math.max(durationMs, heap.durationMs);
  }
  const profile = builder.build({ period: { type: 'space', unit: 'bytes', value: interval }, defaultSampleType: 'alloc_space', timeNanos: startNanos(session), durationNanos: durationMs * 1e6, comments });
  return done(profile.encode(), 'alloc', builder.sampleCount, hasCpu ? 'cpu' : null, warnings);
}

function chooseKind(wanted: ExportKind | null, hasCpu: boolean, hasAlloc: boolean, shown: string): ExportKind {
  if (wanted === 'cpu' && !hasCpu) throw new UserError(`${shown} has no CPU profile to export${hasAlloc ? ' (it has allocations: --type alloc)' : ''}`);
  if (wanted === 'alloc' && !hasAlloc) throw new UserError(`${shown} has no allocations to export${hasCpu ? ' (it has a CPU profile: --type cpu)' : ''} (profile with --preset cpu-gc-alloc to collect them)`);
  if (wanted) return wanted;
  if (hasCpu) return 'cpu';
  if (hasAlloc) return 'alloc';
  throw new UserError(`${shown} has neither a CPU profile nor allocations to export`);
}

/** The run's metadata, as pprof comments (kept by `go tool pprof -comments`; continuous profilers drop them). */
function runComments(summary: Summary, session: SessionRecord | null, shown: string): string[] {
  const out = [`V8 Lens ${TOOL_VERSION} export of ${basename(shown)}`];
  if (session) {
    out.push(`node ${session.node.version} (V8 ${session.node.v8Version})`);
    const { target } = session;
    out.push(`command: ${[target.kind === 'script' ? session.node.command : '', target.program, ...target.args].filter(Boolean).join(' ')} (in ${target.cwd})`);
    const flags = [session.flags.semiSpaceMB !== null ? `--max-semi-space-size=${session.flags.semiSpaceMB}` : '', ...session.flags.extra].filter(Boolean);
    out.push(`flags: ${flags.length > 0 ? flags.join(' ') : 'none'} (preset ${session.flags.preset ?? 'none'}, sampling every ${session.flags.samplingIntervalUs} µs)`);
    if (session.pid != null) out.push(`pid: ${session.pid}`);
    out.push(`started: ${session.startedAt}`);
  }
  const load = summary.load?.figures;
  if (load) out.push(`under load: ${Math.round(load.rps)} req/s over ${load.durationSeconds} s, p50 ${load.p50Ms} ms, p99 ${load.p99Ms} ms, ${load.errors + load.timeouts + load.non2xx} failed`);
  if (summary.gc) out.push(`GC: ${(summary.gc.wallShare * 100).toFixed(1)}% of wall time, ${summary.gc.totalPauseMs.toFixed(1)} ms paused`);
  return out;
}

/** What the export leaves out, said once: V8 Lens's own agent ran on the app's threads. */
function v8LensComment(us: number, samples: number): string {
  return `V8 Lens's agent: ${(us / 1000).toFixed(1)} ms (${samples} sample${samples === 1 ? '' : 's'}) on the app's threads, left out`;
}

/** Threads blocked in Atomics.wait: their samples are kept (label state=waiting), their time is not CPU. */
function waitingComment(us: number): string {
  return `waiting: ${(us / 1000).toFixed(1)} ms of threads blocked in Atomics.wait, off the CPU: samples labelled state=waiting, with no cpu time`;
}

function startNanos(session: SessionRecord | null): number {
  const ms = session ? Date.parse(session.startedAt) : NaN;
  return Number.isFinite(ms) ? ms * 1e6 : 0;
}

// -------------------------------------------------------------------------------------- single files

async function exportFile(path: string, shown: string, wanted: ExportKind | null): Promise<PprofExport> {
  const text = await readRegularFile(path, CPU_PROFILE_READ_LIMIT).catch((err: unknown) => {
    throw new UserError(err instanceof FileRefusedError ? err.message : `cannot read ${shown}: ${errorMessage(err)}`);
  });
  const name = basename(path);
  const start = text.slice(0, 65536);
  // As loadReport's sniffing: a heap profile's nodes carry selfSize, a legacy CPU profile's hitCount.
  const isHeap = /^\s*\{\s*"head"\s*:/.test(start) && /"selfSize"\s*:/.test(start) && !/"hitCount"\s*:/.test(start);
  const comments = [`V8 Lens ${TOOL_VERSION} export of ${name}`];
  if (isHeap) {
    if (wanted === 'cpu') throw new UserError(`${shown} is a heap profile: it has no CPU samples to export`, EXIT.usage);
    const profile: HeapProfile = parseHeapProfile(text, name);
    return exportHeapFile(profile, comments);
  }
  if (wanted === 'alloc') throw new UserError(`${shown} is a CPU profile: it has no allocations to export`, EXIT.usage);
  const model = buildCpuModel(parseCpuProfile(text, name), { isV8LensScript: await v8LensScriptsBeside(path) });
  const builder = new PprofBuilder(CPU_SAMPLE_TYPES);
  const waitingUs = addCpuSamples(builder, model, []);
  if (model.v8LensSamples > 0) comments.push(v8LensComment(model.v8LensUs, model.v8LensSamples));
  if (waitingUs > 0) comments.push(waitingComment(waitingUs));
  const profile = builder.build({ period: { type: 'cpu', unit: 'nanoseconds', value: model.sampleIntervalUs * 1000 }, defaultSampleType: 'cpu', timeNanos: 0, durationNanos: model.durationUs * 1000, comments });
  return done(profile.encode(), 'cpu', builder.sampleCount, null, model.profile.warnings);
}

function exportHeapFile(profile: HeapProfile, comments: string[]): PprofExport {
  const builder = new PprofBuilder(heapSampleTypes('inuse'));
  addHeapSamples(builder, profile, []);
  const note = 'a sampling heap profile from outside V8 Lens: it keeps only what was still alive when it was taken (inuse_space)';
  const built = builder.build({ period: { type: 'space', unit: 'bytes', value: 0 }, defaultSampleType: 'inuse_space', timeNanos: 0, durationNanos: 0, comments: [...comments, note] });
  return done(built.encode(), 'alloc', builder.sampleCount, null, profile.warnings);
}

function done(encoded: Uint8Array, kind: ExportKind, samples: number, alsoHas: ExportKind | null, warnings: string[]): PprofExport {
  const types = kind === 'cpu' ? 'samples/count, cpu/nanoseconds' : 'space/bytes';
  return { bytes: zlib().gzipSync(encoded), kind, sampleTypes: types, samples, alsoHas, warnings };
}
