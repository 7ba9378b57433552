/**
 * Each thread's own CPU time and wall time: what tells a worker that waited from one that worked.
 * Two accounts of the same counter: the agent's reading inside the thread (exact at its exit, when
 * its exit handler ran) and threads.json, read from /proc while the target ran (the last reading
 * before the thread ended: a worker blocked in Atomics.wait runs no timer and, terminated, no exit
 * handler, so its own reading can be from its start). The later of the two is the figure.
 */
import type { ProcessCpuSummary } from '../../shared/model/summary';
import { arrayOf, num, oneOf, shape } from '../../shared/model/shapeCheck';
import type { PolledThread, ThreadCpuRecord } from '../launcher/threadPoller';
import type { AgentRecord } from '../preload/agentRecord';
import { round } from '../util/stats';
import { processWallMs } from './agentRecords';
import { RUN_FILE_LIMITS, readRunJson } from './runFiles';
import type { RunLayout } from './runLayout';

const checkThreadRecord = shape<ThreadCpuRecord>({
  schemaVersion: oneOf(1),
  source: oneOf('schedstat', 'stat'),
  intervalMs: num,
  threads: arrayOf(shape<PolledThread>({ pid: num, tid: num, cpuMs: num, firstSeenMs: num, lastSeenMs: num })),
});

/** threads.json; null when there is none (not Linux, an older run, attach) or it is unusable (a warning says why). */
export async function readThreadRecord(layout: RunLayout, warnings: string[]): Promise<ThreadCpuRecord | null> {
  const read = await readRunJson<ThreadCpuRecord>(layout.dir, layout.threads, checkThreadRecord, RUN_FILE_LIMITS.threads);
  if (read.status === 'bad') warnings.push(`${read.problem}; the threads' own CPU times are left out`);
  return read.status === 'ok' ? read.value : null;
}

export interface ThreadFigures {
  tid: number | null;
  cpuMs: number | null;
  source: ProcessCpuSummary['threadCpuSource'];
  /** Epoch ms the thread ended (or was last seen); null when unknown. */
  endMs: number | null;
}

/** The thread of `record` (its process's main thread when `threadId` is 0). */
export function threadFigures(record: AgentRecord | null, polled: ThreadCpuRecord | null): ThreadFigures {
  const main = (record?.threadId ?? 0) === 0;
  // A main thread's kernel id is its pid; older agents did not record the tid.
  const tid = record?.tid ?? (record && main && process.platform === 'linux' ? record.pid : null);
  const seen = record && tid !== null ? (polled?.threads.find((t) => t.pid === record.pid && t.tid === tid) ?? null) : null;
  const own = record?.threadCpuUs != null ? { ms: record.threadCpuUs / 1000, at: record.updatedAtMs } : null;
  let cpuMs: number | null = null;
  let source: ThreadFigures['source'] = null;
  // The agent's own reading at the thread's exit is the last word; otherwise the later reading. A
  // reading from before the end with nothing from outside (not Linux, or a lab run) could be from the
  // thread's start: not collected rather than a figure that is short.
  if (own && (record!.final || (seen !== null && own.at >= seen.lastSeenMs))) {
    cpuMs = own.ms;
    source = record!.threadCpuSource ?? null;
  } else if (seen) {
    cpuMs = seen.cpuMs;
    source = '/proc';
  }
  const endMs = record?.final ? record.updatedAtMs : Math.max(record?.updatedAtMs ?? -Infinity, seen?.lastSeenMs ?? -Infinity);
  return { tid, cpuMs: cpuMs === null ? null : round(cpuMs, 3), source, endMs: Number.isFinite(endMs) ? endMs : null };
}

/**
 * A thread's wall time, from its start to its end: the agent's record (final, or as last seen from
 * outside); a worker's record that was never refreshed ends far too early (a waiting worker runs no
 * timer), so its CPU profile's length is a floor. null when unknown.
 */
export function threadWallMs(record: AgentRecord | null, figures: ThreadFigures, profileWallMs: number | null): number | null {
  const fromRecord = record ? (figures.endMs !== null ? Math.max(0, figures.endMs - record.processStartMs) : processWallMs(record)) : null;
  if (fromRecord === null) return profileWallMs;
  return Math.max(fromRecord, profileWallMs ?? 0);
}
