import type { GcIsolateSummary, GcShareOf, GcSummary, GcTypeStats, YoungGeneration } from '../../shared/model/summary';
import { max, mean, percentile, round } from '../util/stats';
import type { GcEvent } from './gcEvent';
import type { GcEventTable } from './gcEventTable';
import { reachedSemiSpaceMB } from '../../shared/youngGenerationText';
import { youngCollectorOf, youngGeneration } from './youngGeneration';
import { summarizeHelperGc } from './gcHelperTime';

export interface GcSummaryOptions {
  /** Wall time of the run; when not given, the main isolate's last GC time is used. */
  wallMs?: number | null;
  /** The semi-space the run really had, in MB (measured elsewhere); superseded by `newSpaceMaxBytes`. */
  semiSpaceMB?: number | null;
  /** Largest new space the isolate had (the preload samples it): with the events, gives `youngGeneration`. */
  newSpaceMaxBytes?: number | null;
  /** What `--max-semi-space-size` asked for; null when left to V8. */
  semiSpaceRequestedMB?: number | null;
  /** From the collector: lines that looked like GC events but did not parse. */
  unparsedLines?: number;
  /** Pid of the process we launched; its isolates are preferred when choosing the main one. */
  mainPid?: number | null;
}

export interface IsolateEvents {
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
  const totals = eventTotals(mainEvents);
  // Without a measured wall time, the isolate's last GC time stands in for it. That underestimates
  // the run (time after the last GC is missing), so the share comes out somewhat high.
  const wallMs = options.wallMs ?? totals.lastTimeMs;
  const young = options.newSpaceMaxBytes !== undefined ? youngGeneration(youngCollectorOf(mainEvents), options.newSpaceMaxBytes) : undefined;
  return {
    ...totalsFigures(totals, wallMs),
    semiSpaceMB: young ? reachedSemiSpaceMB(young) : options.semiSpaceMB ?? null,
    ...(young ? { youngGeneration: young } : {}),
    semiSpaceRequestedMB: options.semiSpaceRequestedMB ?? null,
    unparsedLines: options.unparsedLines ?? 0,
    isolate: main === null ? null : isolateSummary(main),
    otherIsolates: isolates.filter((i) => i !== main).map(isolateSummary),
    helperThreads: summarizeHelperGc(mainEvents),
  };
}

interface EventTotals {
  pausesByType: Map<string, number[]>;
  byReason: Record<string, number>;
  totalPauseMs: number;
  incrementalMarkingMs: number;
  lastTimeMs: number;
  count: number;
}

function eventTotals(events: readonly GcEvent[]): EventTotals {
  const t = newTotals();
  for (const event of events) addToTotals(t, event.type, event.pauseMs, event.incrementalMarking?.ms ?? 0, event.reason, event.timeMs);
  return t;
}

function newTotals(): EventTotals {
  return { pausesByType: new Map(), byReason: {}, totalPauseMs: 0, incrementalMarkingMs: 0, lastTimeMs: 0, count: 0 };
}

/** One event into the totals (events are added in their order). */
function addToTotals(t: EventTotals, type: string, pauseMs: number, incrementalMarkingMs: number, reason: string, timeMs: number): void {
  // The type is stored without its " (interleaved)" / " (reduce)" suffix by the parsers.
  let pauses = t.pausesByType.get(type);
  if (pauses === undefined) t.pausesByType.set(type, (pauses = []));
  pauses.push(pauseMs);
  t.count++;
  t.totalPauseMs += pauseMs;
  t.incrementalMarkingMs += incrementalMarkingMs;
  // NVP lines carry no reason: leave them out rather than count them under "".
  if (reason !== '') t.byReason[reason] = (t.byReason[reason] ?? 0) + 1;
  if (timeMs > t.lastTimeMs) t.lastTimeMs = timeMs;
}

/**
 * The same summary as `summarizeGc(table's events)`, read from the columns without an object per
 * event: `report <gc log>` of a day-long trace has millions of them. Each figure is added up in the
 * same order as there, so the two agree to the last bit (gcTableSummary.test.ts holds them).
 */
export function summarizeGcTable(table: GcEventTable, options: GcSummaryOptions = {}): GcSummary {
  const isolates = table.isolates; // numbered in the order of their first event, as groupByIsolate has them
  const counts = new Array<number>(isolates.length).fill(0);
  const pauses = new Array<number>(isolates.length).fill(0);
  for (let i = 0; i < table.length; i++) {
    const isolate = table.isolateOf(i);
    counts[isolate]!++;
    pauses[isolate]! += table.pauseOf(i);
  }
  const mainPid = options.mainPid ?? null;
  let main = mainPid === null ? -1 : isolates.findIndex((i) => i.pid === mainPid);
  if (main < 0) main = isolates.length > 0 ? 0 : -1;
  const totals = newTotals();
  const mainTypes = new Set<string>();
  const mainNvp: GcEvent[] = [];
  for (let i = 0; i < table.length; i++) {
    if (table.isolateOf(i) !== main) continue;
    const type = table.typeOf(i);
    addToTotals(totals, type, table.pauseOf(i), table.markingOf(i)?.ms ?? 0, table.reasonOf(i), table.timeOf(i));
    mainTypes.add(type);
    if (table.isNvp(i)) mainNvp.push(table.event(i));
  }
  const wallMs = options.wallMs ?? totals.lastTimeMs;
  // The collector depends only on which types ran.
  const young = options.newSpaceMaxBytes !== undefined ? youngGeneration(youngCollectorOf([...mainTypes].map((type) => ({ type }))), options.newSpaceMaxBytes) : undefined;
  const summaryOf = (k: number): GcIsolateSummary => isolateFigures(isolates[k]!.pid, isolates[k]!.isolate, counts[k]!, pauses[k]!);
  return {
    ...totalsFigures(totals, wallMs),
    semiSpaceMB: young ? reachedSemiSpaceMB(young) : options.semiSpaceMB ?? null,
    ...(young ? { youngGeneration: young } : {}),
    semiSpaceRequestedMB: options.semiSpaceRequestedMB ?? null,
    unparsedLines: options.unparsedLines ?? 0,
    isolate: main < 0 ? null : summaryOf(main),
    otherIsolates: isolates.flatMap((_, k) => (k === main ? [] : [summaryOf(k)])),
    // Only NVP lines have helper-thread phases.
    helperThreads: summarizeHelperGc(mainNvp),
  };
}

/** The counts, pauses and share of `totals` over `wallMs` (never above 1). */
function totalsFigures(t: EventTotals, wallMs: number): Pick<GcSummary, 'byType' | 'totalPauseMs' | 'incrementalMarkingMs' | 'wallShare' | 'wallMs' | 'eventCount' | 'byReason'> {
  const byType: Record<string, GcTypeStats> = {};
  for (const [type, pauses] of t.pausesByType) byType[type] = typeStats(pauses);
  const share = wallMs > 0 ? t.totalPauseMs / wallMs : 0;
  return {
    byType,
    totalPauseMs: round(t.totalPauseMs, 3),
    incrementalMarkingMs: round(t.incrementalMarkingMs, 3),
    wallShare: round(Math.min(1, Math.max(0, share)), 6),
    wallMs: round(wallMs, 3),
    eventCount: t.count,
    byReason: t.byReason,
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

/** The figures of several isolates (processes, threads) read as one run. */
export interface RunGcPart {
  events: readonly GcEvent[];
  /** Its own wall time (its process's or thread's life); null when unknown (its last GC time stands in). */
  wallMs: number | null;
  /** Its largest new space, bytes; null when not measured. */
  newSpaceMaxBytes: number | null;
  /**
   * Whose isolate it is (`ProcessSummary.id`, its pid) and whether it is a thread that serves the
   * app (a process's main thread) or a worker thread: absent, every part counts in the share.
   */
  thread?: { id: string; pid: number; serving: boolean };
}

/**
 * The whole run's GC: every isolate's events pooled (counts, totals, p95 and max over all pauses),
 * and a true share: the total pause over the sum of each isolate's own wall time, so it lies within
 * the isolates' own shares and never above 1 (a sum of pauses over one window would pass 100% with
 * enough workers). With worker threads the share is of the threads that serve the app (each
 * process's main thread, `shareOf`): a worker's pause stops only its own thread, and pooling it
 * with idle workers' wall time said 1.6% for a main thread at 4.9%. The young generation is the
 * largest any of them reached. `main` says which isolate is the app's; the others are listed as
 * `otherIsolates`.
 */
export function summarizeRunGc(parts: readonly RunGcPart[], main: { pid: number; isolate: string } | null, options: { semiSpaceRequestedMB: number | null; unparsedLines: number }): GcSummary {
  const all: GcEvent[] = [];
  for (const part of parts) for (const e of part.events) all.push(e);
  const serving = parts.filter((p) => p.thread?.serving === true);
  const threaded = serving.length > 0 && serving.length < parts.length;
  const shared = threaded ? serving : parts;
  let wallMs = 0;
  let sharePauseMs = 0;
  for (const part of shared) {
    wallMs += part.wallMs ?? lastEventTime(part.events);
    for (const e of part.events) sharePauseMs += e.pauseMs;
  }
  const largest = largestYoungGeneration(parts.map((p) => youngGeneration(youngCollectorOf(p.events), p.newSpaceMaxBytes)));
  const isolates = groupByIsolate(all);
  const mainGroup = (main ? isolates.find((i) => i.pid === main.pid && i.isolate === main.isolate) : undefined) ?? isolates[0] ?? null;
  const totals = totalsFigures(eventTotals(all), wallMs);
  return {
    ...totals,
    ...(threaded ? { wallShare: round(Math.min(1, Math.max(0, wallMs > 0 ? sharePauseMs / wallMs : 0)), 6), shareOf: shareOf(serving, sharePauseMs, wallMs) } : {}),
    semiSpaceMB: reachedSemiSpaceMB(largest),
    youngGeneration: largest,
    semiSpaceRequestedMB: options.semiSpaceRequestedMB,
    unparsedLines: options.unparsedLines,
    isolate: mainGroup ? isolateSummary(mainGroup) : null,
    otherIsolates: isolates.filter((i) => i !== mainGroup).map(isolateSummary),
    helperThreads: summarizeHelperGc(all),
  };
}

function shareOf(serving: readonly RunGcPart[], pauseMs: number, wallMs: number): GcShareOf {
  return { processes: serving.map((p) => p.thread!.id), label: servingLabel(serving.map((p) => p.thread!.pid)), pauseMs: round(pauseMs, 3), wallMs: round(wallMs, 3) };
}

/** "the main thread (pid 4120)", "the main threads of 3 processes". */
export function servingLabel(pids: readonly number[]): string {
  return pids.length === 1 ? `the main thread (pid ${pids[0]})` : `the main threads of ${pids.length} processes`;
}

/** The largest young generation of several isolates (the collector of the one that reached it). */
function largestYoungGeneration(list: readonly YoungGeneration[]): YoungGeneration {
  const ran = list.filter((y) => y.collector !== null);
  if (ran.length === 0) return { collector: null, newSpaceMB: list.reduce<number | null>((m, y) => (y.newSpaceMB === null ? m : Math.max(m ?? 0, y.newSpaceMB)), null) };
  return ran.reduce((best, y) => ((reachedSemiSpaceMB(y) ?? -1) > (reachedSemiSpaceMB(best) ?? -1) ? y : best));
}

function lastEventTime(events: readonly GcEvent[]): number {
  let last = 0;
  for (const e of events) if (e.timeMs > last) last = e.timeMs;
  return last;
}

/** Isolates in the order of their first event. */
export function groupByIsolate(events: readonly GcEvent[]): IsolateEvents[] {
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
  return isolateFigures(group.pid, group.isolate, group.events.length, total);
}

function isolateFigures(pid: number, isolate: string, eventCount: number, totalPauseMs: number): GcIsolateSummary {
  return { pid, isolate, eventCount, totalPauseMs: round(totalPauseMs, 3) };
}
