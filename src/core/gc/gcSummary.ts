import type { GcIsolateSummary, GcSummary, GcTypeStats } from '../summary/types';
import { max, mean, percentile, round } from '../util/stats';
import type { GcEvent } from './gcEvent';

export interface GcSummaryOptions {
  /** Wall time of the run; when not given, the main isolate's last GC time is used. */
  wallMs?: number | null;
  /** The semi-space the run really had, in MB (measured elsewhere). */
  semiSpaceMB?: number | null;
  /** What `--max-semi-space-size` asked for; null when left to V8. */
  semiSpaceRequestedMB?: number | null;
  /** From the collector: lines that looked like GC events but did not parse. */
  unparsedLines?: number;
  /** Pid of the process we launched; its isolates are preferred when choosing the main one. */
  mainPid?: number | null;
}

interface IsolateEvents {
  pid: number;
  isolate: string;
  events: GcEvent[];
}

/**
 * The GC figures of `summary.json`. They describe one isolate, the main one; the others (worker
 * threads, child processes) are listed with their count and pause total.
 */
export function summarizeGc(events: readonly GcEvent[], options: GcSummaryOptions = {}): GcSummary {
  const isolates = groupByIsolate(events);
  const main = chooseMainIsolate(isolates, options.mainPid ?? null);
  const mainEvents = main?.events ?? [];

  const pausesByType = new Map<string, number[]>();
  const byReason: Record<string, number> = {};
  let totalPauseMs = 0;
  let incrementalMarkingMs = 0;
  let lastTimeMs = 0;
  for (const event of mainEvents) {
    // The type is stored without its " (interleaved)" / " (reduce)" suffix by the parsers.
    let pauses = pausesByType.get(event.type);
    if (pauses === undefined) pausesByType.set(event.type, (pauses = []));
    pauses.push(event.pauseMs);
    totalPauseMs += event.pauseMs;
    incrementalMarkingMs += event.incrementalMarking?.ms ?? 0;
    // NVP lines carry no reason: leave them out rather than count them under "".
    if (event.reason !== '') byReason[event.reason] = (byReason[event.reason] ?? 0) + 1;
    if (event.timeMs > lastTimeMs) lastTimeMs = event.timeMs;
  }

  const byType: Record<string, GcTypeStats> = {};
  for (const [type, pauses] of pausesByType) byType[type] = typeStats(pauses);

  // Without a measured wall time, the isolate's last GC time stands in for it. That underestimates
  // the run (time after the last GC is missing), so the share comes out somewhat high.
  const wallMs = options.wallMs ?? lastTimeMs;
  const share = wallMs > 0 ? totalPauseMs / wallMs : 0;

  return {
    byType,
    totalPauseMs: round(totalPauseMs, 3),
    incrementalMarkingMs: round(incrementalMarkingMs, 3),
    wallShare: round(Math.min(1, Math.max(0, share)), 6),
    wallMs: round(wallMs, 3),
    semiSpaceMB: options.semiSpaceMB ?? null,
    semiSpaceRequestedMB: options.semiSpaceRequestedMB ?? null,
    eventCount: mainEvents.length,
    byReason,
    unparsedLines: options.unparsedLines ?? 0,
    isolate: main === null ? null : isolateSummary(main),
    otherIsolates: isolates.filter((i) => i !== main).map(isolateSummary),
  };
}

function typeStats(pauses: readonly number[]): GcTypeStats {
  let total = 0;
  for (const p of pauses) total += p;
  return {
    count: pauses.length,
    totalMs: round(total, 3),
    meanMs: round(mean(pauses), 3),
    p95Ms: round(percentile(pauses, 95), 3),
    maxMs: round(max(pauses), 3),
  };
}

/** Isolates in the order of their first event. */
function groupByIsolate(events: readonly GcEvent[]): IsolateEvents[] {
  const groups: IsolateEvents[] = [];
  let current: IsolateEvents | undefined;
  for (const event of events) {
    if (current === undefined || current.pid !== event.pid || current.isolate !== event.isolate) {
      current = groups.find((g) => g.pid === event.pid && g.isolate === event.isolate);
      if (current === undefined) {
        current = { pid: event.pid, isolate: event.isolate, events: [] };
        groups.push(current);
      }
    }
    current.events.push(event);
  }
  return groups;
}

/**
 * The main isolate is the first one to report a GC among the launched process's isolates (all of
 * them when its pid is unknown, or when it printed none, as with a wrapper like `npm start`): the
 * main isolate initialises before any worker thread, and a process starts before its children.
 * A worker that garbage-collects before the main thread's first GC would fool this; we accept that.
 */
function chooseMainIsolate(isolates: readonly IsolateEvents[], mainPid: number | null): IsolateEvents | null {
  if (mainPid !== null) {
    const ofMainPid = isolates.find((i) => i.pid === mainPid);
    if (ofMainPid !== undefined) return ofMainPid;
  }
  return isolates[0] ?? null;
}

function isolateSummary(group: IsolateEvents): GcIsolateSummary {
  let total = 0;
  for (const e of group.events) total += e.pauseMs;
  return { pid: group.pid, isolate: group.isolate, eventCount: group.events.length, totalPauseMs: round(total, 3) };
}
