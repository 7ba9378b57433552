/**
 * Each process's and thread's heap profile in a run, read and cleaned the way the summary's
 * allocations are (run/runAllocations.ts: positions from the same isolate's CPU profile, the
 * preload's frames pruned), for views and exports that need the call tree itself.
 */
import type { SessionRecord } from '../../shared/model/session';
import type { ProcessSummary } from '../../shared/model/summary';
import type { HeapProfile } from '../heap/heapProfileFormat';
import type { ScriptFrames } from '../heap/resolvePositions';
import { errorMessage } from '../util/errors';
import { readAgentRecords } from './agentRecords';
import { preloadPathOf } from './analyzeRun';
import { readProcessHeapProfile } from './runAllocations';
import { runPath } from './runFiles';
import type { RunLayout } from './runLayout';

export interface RunHeapProfile {
  profile: HeapProfile;
  /** Bytes between samples, as the preload asked V8. */
  samplingIntervalBytes: number;
  /** How long sampling ran, ms. */
  durationMs: number;
}

/** By ProcessSummary id: those whose summary has allocations and whose heap profile may be read. */
export async function readRunHeapProfiles(
  layout: RunLayout,
  processes: readonly ProcessSummary[],
  session: SessionRecord | null,
  warnings: string[],
  /** What a CPU profile of the run (by file name) knows about its scripts. */
  framesOf: (cpuProfile: string) => Promise<ScriptFrames>,
): Promise<Map<string, RunHeapProfile>> {
  const out = new Map<string, RunHeapProfile>();
  const wanted = processes.filter((p) => p.alloc);
  if (wanted.length === 0) return out;
  // The summary said already what was wrong with the records; these are read again for their files only.
  const records = await readAgentRecords(layout, []);
  const preloadPath = preloadPathOf(session);
  for (const p of wanted) {
    const record = records.find((r) => r.pid === p.pid && (r.threadId ?? 0) === (p.threadId ?? 0)) ?? null;
    if (record?.allocations == null) continue;
    const cpuPath = p.cpu ? runPath(layout.cpuDir, p.cpu.profile) : null;
    const scriptFrames = new Map<string, ScriptFrames>();
    if (cpuPath !== null) {
      try {
        scriptFrames.set(cpuPath, await framesOf(p.cpu!.profile));
      } catch (err) {
        warnings.push(`allocations of pid ${p.pid}: ${errorMessage(err)}`);
      }
    }
    const profile = await readProcessHeapProfile(layout, { pid: p.pid, record, profile: cpuPath === null ? null : { path: cpuPath, file: p.cpu!.profile, pid: p.pid, threadId: p.threadId } }, { scriptFrames, preloadPath }, []);
    if (profile) out.set(p.id, { profile, samplingIntervalBytes: record.allocations.samplingIntervalBytes, durationMs: record.allocations.endMs - record.allocations.startMs });
  }
  return out;
}
