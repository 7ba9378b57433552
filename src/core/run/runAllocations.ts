/**
 * A run's allocations: each process's and thread's sampling heap profile (written by the preload,
 * named in its agent record), summarized per process and for the whole run. Under load the
 * profiles cover the measured window only, and bytes per request are over its requests.
 */
import type { AllocFunctionSummary, AllocSummary, LoadSummary } from '../../shared/model/summary';
import { bool, nullable, num, oneOf, optional, shape, str } from '../../shared/model/shapeCheck';
import { MAX_ALLOC_FUNCTIONS, summarizeAllocations } from '../heap/allocSummary';
import type { HeapNode, HeapProfile } from '../heap/heapProfileFormat';
import { pruneFrames, resolveHeapPositions, type ScriptFrames } from '../heap/resolvePositions';
import { parseHeapProfile } from '../heap/parseHeapProfile';
import { v8LensScripts } from '../cpu/v8LensFrames';
import type { AllocationRecord } from '../preload/allocationSampler';
import { compareText } from '../util/compareText';
import { errorMessage } from '../util/errors';
import type { IsolateEvents } from '../gc/gcSummary';
import { gcInAllocationSpan, linkAllocationsToGc, withGcLink, type GcSpan } from './allocGcLink';
import type { RunProcess } from './processTable';
import { RUN_FILE_LIMITS, readRunText, runPath } from './runFiles';
import type { RunLayout } from './runLayout';

const checkAllocationRecord = shape<AllocationRecord>({ file: str, samplingIntervalBytes: num, startMs: num, endMs: num, window: bool, liveAtEndBytes: nullable(num), samplerStops: optional(num), mode: optional(oneOf('survivors')) });

export interface RunAllocations {
  /** The whole run (npm's processes left out); null when no process wrote a usable profile. */
  alloc: AllocSummary | null;
  /** By RunProcess id. */
  byProcess: Map<string, AllocSummary>;
}

export interface AllocationSources {
  /** What each process's CPU profile (by its file's path) knows about its scripts. */
  scriptFrames: ReadonlyMap<string, ScriptFrames>;
  /** V8 Lens's preload: its frames and what it allocated are not the app's. */
  preloadPath: string | null;
}

export async function readRunAllocations(
  layout: RunLayout,
  processes: readonly RunProcess[],
  load: LoadSummary | null,
  sources: AllocationSources,
  /** Each isolate's GC events, to set the allocations beside their young GCs; null when the GC was not traced. */
  gcIsolates: readonly IsolateEvents[] | null,
  warnings: string[],
): Promise<RunAllocations> {
  const byProcess = new Map<string, AllocSummary>();
  const spans = new Map<string, GcSpan>();
  const requests = load?.figures?.requests ?? null;
  let unnamed = 0;
  for (const p of processes) {
    const profile = await readProcessHeapProfile(layout, p, sources, warnings);
    if (profile === null) continue;
    const raw = p.record!.allocations!;
    unnamed += profile.nodes.filter((n) => n.url === '' && n.scriptId !== '' && n.scriptId !== '0').length;
    const summary = summarizeAllocations(profile, {
      durationMs: raw.endMs - raw.startMs,
      samplingIntervalBytes: raw.samplingIntervalBytes,
      requests: raw.window ? requests : null,
      liveAtEndBytes: raw.liveAtEndBytes,
    });
    // Survivors (the sampler dropped what young GCs freed): the bytes are a part of what was allocated.
    const survivors = raw.mode === 'survivors';
    if (survivors) summary.mode = 'survivors';
    const span = gcSpanOf(p, gcIsolates);
    if (span) spans.set(p.id, span);
    byProcess.set(p.id, withGcLink(summary, span ? linkAllocationsToGc(summary.totalBytes, summary.sampleCount, [span], survivors, summary.samplingIntervalBytes) : null));
  }
  if (unnamed > 0) {
    warnings.push(`allocations: ${unnamed} frame(s) have no file or line (older V8 names the main script's functions only in CPU profiles: collect the CPU profile too)`);
  }
  const countedIds = processes.filter((p) => p.role !== 'npm' && byProcess.has(p.id)).map((p) => p.id);
  if (countedIds.length === 0 && !warnings.some((w) => w.startsWith('allocations'))) {
    warnings.push('allocations: no process wrote a heap profile (see the agent records\' errors)');
  }
  if (countedIds.length === 0) return { alloc: null, byProcess };
  const merged = mergeAllocations(countedIds.map((id) => byProcess.get(id)!));
  const countedSpans = countedIds.map((id) => spans.get(id)).filter((s): s is GcSpan => s !== undefined);
  const link = gcIsolates !== null && countedSpans.length > 0 ? linkAllocationsToGc(merged.totalBytes, merged.sampleCount, countedSpans, merged.mode === 'survivors', merged.samplingIntervalBytes) : null;
  return { alloc: withGcLink(merged, link), byProcess };
}

/** The process's GCs while its allocations were sampled; null when its GC was not traced or its isolate is unknown. */
function gcSpanOf(p: RunProcess, gcIsolates: readonly IsolateEvents[] | null): GcSpan | null {
  const raw = p.record?.allocations;
  if (gcIsolates === null || !raw || p.isolate === null) return null;
  const events = gcIsolates.find((i) => i.pid === p.pid && i.isolate === p.isolate)?.events ?? [];
  return gcInAllocationSpan(events, p.record!.processStartMs, raw, p.record!.newSpaceMaxBytes);
}

/**
 * One process's or thread's heap profile as its agent record names it, with the frames V8 left
 * unnamed resolved from its CPU profile and the preload's subtrees pruned; null when it has none
 * or it may not be read (`warnings` says why).
 */
export async function readProcessHeapProfile(
  layout: RunLayout,
  p: Pick<RunProcess, 'pid' | 'record' | 'profile'>,
  sources: AllocationSources,
  warnings: string[],
): Promise<HeapProfile | null> {
  const raw = p.record?.allocations;
  if (raw === undefined || raw === null) return null;
  const problem = checkAllocationRecord(raw, `agent record of pid ${p.pid}: allocations`);
  if (problem !== null) {
    warnings.push(`${problem}; its allocations are left out`);
    return null;
  }
  return readHeapProfileFile(layout, raw.file, p.pid, p.profile?.path ?? null, sources, warnings);
}

/**
 * A heap profile in the run's heap/ folder, its unnamed frames resolved from the same isolate's CPU
 * profile (by that profile's path) and V8 Lens's own frames pruned; null when it may not be read
 * (`warnings` says why).
 */
export async function readHeapProfileFile(
  layout: RunLayout,
  file: string,
  pid: number,
  cpuProfilePath: string | null,
  sources: AllocationSources,
  warnings: string[],
): Promise<HeapProfile | null> {
  try {
    const path = runPath(layout.heapDir, file);
    const profile = parseHeapProfile(await readRunText(layout.dir, path, RUN_FILE_LIMITS.heapProfile), file);
    for (const w of profile.warnings) warnings.push(`${file}: ${w}`);
    const frames = cpuProfilePath !== null ? sources.scriptFrames.get(cpuProfilePath) : undefined;
    if (frames) resolveHeapPositions(profile, frames);
    const isV8Lens = v8LensScripts([sources.preloadPath]);
    if (isV8Lens) pruneFrames(profile, (node: HeapNode) => isV8Lens(node.url));
    return profile;
  } catch (err) {
    warnings.push(`allocations of pid ${pid}: ${errorMessage(err)}`);
    return null;
  }
}

/** Several processes' allocations as one: bytes and rates add up (each over its own time), functions merge by place. */
export function mergeAllocations(parts: readonly AllocSummary[]): AllocSummary {
  if (parts.length === 1) return parts[0]!;
  const totalBytes = parts.reduce((sum, p) => sum + p.totalBytes, 0);
  const sumOrNull = (pick: (p: AllocSummary) => number | null) => (parts.every((p) => pick(p) !== null) ? parts.reduce((sum, p) => sum + pick(p)!, 0) : null);
  const functions = new Map<string, AllocFunctionSummary>();
  for (const part of parts) {
    for (const f of part.functions) {
      const key = `${f.name}\u0000${f.url}\u0000${f.line}\u0000${f.column}`;
      const into = functions.get(key) ?? { ...f, selfBytes: 0, totalBytes: 0, share: 0 };
      into.selfBytes += f.selfBytes;
      into.totalBytes += f.totalBytes;
      functions.set(key, into);
    }
  }
  return {
    samplingIntervalBytes: parts[0]!.samplingIntervalBytes,
    totalBytes,
    bytesPerSecond: sumOrNull((p) => p.bytesPerSecond),
    bytesPerRequest: sumOrNull((p) => p.bytesPerRequest),
    liveAtEndBytes: sumOrNull((p) => p.liveAtEndBytes),
    sampleCount: parts.reduce((sum, p) => sum + p.sampleCount, 0),
    ...(parts.every((p) => p.mode === 'survivors') ? { mode: 'survivors' as const } : {}),
    functions: [...functions.values()]
      .map((f) => ({ ...f, share: totalBytes > 0 ? f.selfBytes / totalBytes : 0 }))
      .sort((a, b) => b.selfBytes - a.selfBytes || compareText(a.name, b.name))
      .slice(0, MAX_ALLOC_FUNCTIONS),
  };
}
