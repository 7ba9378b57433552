/**
 * What one lab run allocated in its measured window: the target's processes' sampling heap
 * profiles (the preload restarts them when the window opens), summed, per request, and the functions
 * that allocated most. The semi-space size cannot change these: they are the code's.
 */
import type { SweepAllocator } from '../../shared/model/sweep';
import { summarizeAllocations } from '../heap/allocSummary';
import type { AgentRecord } from '../preload/agentRecord';
import { mergeAllocations, readHeapProfileFile } from '../run/runAllocations';
import type { RunLayout } from '../run/runLayout';

/** How many allocators a lab run keeps. */
const TOP_ALLOCATORS = 3;

export interface WindowAllocations {
  bytesPerRequest: number;
  topAllocators: SweepAllocator[];
}

/** null when no process sampled the window (older preload, a run that never reached it). */
export async function windowAllocations(
  layout: RunLayout,
  records: readonly AgentRecord[],
  requests: number,
  preloadPath: string,
): Promise<WindowAllocations | null> {
  if (!(requests > 0)) return null;
  const parts = [];
  for (const r of records) {
    const raw = r.allocations;
    if (!raw || !raw.window) continue;
    // A lab run has no CPU profile to name frames from; what V8 names is enough for the figures.
    const profile = await readHeapProfileFile(layout, raw.file, r.pid, null, { scriptFrames: new Map(), preloadPath }, []);
    if (!profile) continue;
    parts.push(summarizeAllocations(profile, { durationMs: raw.endMs - raw.startMs, samplingIntervalBytes: raw.samplingIntervalBytes, requests, liveAtEndBytes: raw.liveAtEndBytes }));
  }
  if (parts.length === 0) return null;
  const merged = mergeAllocations(parts);
  const topAllocators = merged.functions
    .filter((f) => !f.name.startsWith('(') && !f.url.startsWith('node:'))
    .slice(0, TOP_ALLOCATORS)
    .map(({ name, url, line, column, share }) => ({ name, url, line, column, share }));
  return { bytesPerRequest: merged.totalBytes / requests, topAllocators };
}
