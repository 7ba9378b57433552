/**
 * `gc-events.jsonl`: the GC events an attached run observed, one JSON object per line, written as
 * they arrive (so a crash of ours keeps what came before). It stands in for gc-trace.log, which only
 * a process started with --trace-gc can give.
 */
import { readline } from '../util/lazyBuiltins';
import type { GcEvent } from '../gc/gcEvent';
import { isErrno } from '../util/errors';
import { RUN_FILE_LIMITS, openRunFile } from './runFiles';
import type { RunLayout } from './runLayout';

export interface AttachedGcEvent {
  /** GC end, ms since the target started (its performance clock; --trace-gc's times are close to it). */
  timeMs: number;
  /** GC start on the same clock (the entry's startTime); absent in files written before it was kept. */
  startMs?: number;
  /** 'Scavenge' | 'Mark-Compact' | 'Incremental marking' | 'Weak callbacks' | 'Minor Mark-Sweep'… named like --trace-gc */
  type: string;
  pauseMs: number;
  /** Heap used and total when the entry was delivered (shortly after the GC), MiB. */
  heapUsedMB: number;
  heapTotalMB: number;
}

/** The isolate name attached events are filed under (the observer sees the main isolate only). */
export const ATTACHED_ISOLATE = 'attached';

export function formatGcEventLine(e: AttachedGcEvent): string {
  return `${JSON.stringify(e)}\n`;
}

/**
 * Reads the run's file back; a line cut short (the target or we died mid-write) or of another shape
 * is skipped and counted. No file: no events. A file that may not be read (see runFiles.ts) throws
 * a RunFileError.
 */
export async function readAttachedGcEvents(layout: RunLayout): Promise<{ events: AttachedGcEvent[]; badLines: number; found: boolean }> {
  const events: AttachedGcEvent[] = [];
  let badLines = 0;
  const handle = await openRunFile(layout.dir, layout.gcEvents, RUN_FILE_LIMITS.gcEvents).catch((err: unknown) => {
    if (isErrno(err, 'ENOENT')) return null;
    throw err;
  });
  if (handle === null) return { events, badLines, found: false };
  const input = handle.createReadStream({ encoding: 'utf8', autoClose: false });
  try {
    for await (const line of readline().createInterface({ input, crlfDelay: Infinity })) {
      if (line.trim() === '') continue;
      // One event is ~150 bytes: a far longer line is not one of ours, and is not parsed.
      const e = line.length > MAX_LINE_CHARS ? null : parseLine(line);
      if (e) events.push(e);
      else badLines++;
    }
  } finally {
    input.destroy();
    await handle.close();
  }
  return { events, badLines, found: true };
}

const MAX_LINE_CHARS = 4096;

function parseLine(line: string): AttachedGcEvent | null {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  const n = (k: string) => (typeof o[k] === 'number' ? (o[k] as number) : Number.NaN);
  if (typeof o.type !== 'string' || !Number.isFinite(n('timeMs')) || !Number.isFinite(n('pauseMs'))) return null;
  const e: AttachedGcEvent = { timeMs: n('timeMs'), type: o.type, pauseMs: n('pauseMs'), heapUsedMB: n('heapUsedMB'), heapTotalMB: n('heapTotalMB') };
  if (Number.isFinite(n('startMs'))) e.startMs = n('startMs');
  return e;
}

/**
 * As GcEvents, for the GC summary and the report's timeline. The observer gives no reason and no
 * heap-before: the heap after the previous event stands in for it.
 */
export function attachedToGcEvents(events: readonly AttachedGcEvent[], pid: number): GcEvent[] {
  const out: GcEvent[] = [];
  let previous = events[0]?.heapUsedMB ?? 0;
  for (const e of events) {
    out.push({
      pid,
      isolate: ATTACHED_ISOLATE,
      timeMs: e.timeMs,
      type: e.type,
      interleaved: false,
      reduce: false,
      heapBeforeMB: previous,
      committedBeforeMB: Number.NaN,
      heapAfterMB: e.heapUsedMB,
      committedAfterMB: Number.NaN,
      pooledMB: null,
      pauseMs: e.pauseMs,
      externalMs: 0,
      incrementalMarking: null,
      mu: null,
      reason: '',
      collectorReason: '',
      // GcEvent has no source for observed events; nothing downstream reads it for these.
      source: 'trace-gc',
    });
    if (Number.isFinite(e.heapUsedMB)) previous = e.heapUsedMB;
  }
  return out;
}
