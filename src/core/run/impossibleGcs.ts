/**
 * GC-shaped lines V8 cannot have written. The demux takes a line as V8's when its `[pid:isolate]`
 * prefix names one of the run's processes, so a target can print a line shaped like its own GC trace
 * (`[<pid>:0x…] 999999999 ms: Mark-Compact … 88888888.52 / 0.00 ms`) and have it counted: 88,888,889
 * ms of pause in a 211 ms run. V8's own lines obey what its clock does: an isolate's GC times (ms
 * since the isolate started) never pass the life of its process, a pause never passes the time
 * before it, and one isolate's times do not run backwards. A line that breaks one of these is left
 * out and said, with what was impossible about it. (A forgery that keeps all of them is as small as
 * a real GC, and within these bounds it cannot be told from one by the trace alone.)
 */
import type { GcEvent } from '../gc/gcEvent';
import type { IsolateEvents } from '../gc/gcSummary';
import { processWallMs } from './agentRecords';
import type { AgentRecord } from '../preload/agentRecord';

/** V8 prints times to the ms and pauses rounded; the process clock and the isolate's are apart by start-up. */
const SLACK_MS = 1000;

export interface ImpossibleGcs {
  events: Set<GcEvent>;
  /** One line for the warnings; null when none. */
  warning: string | null;
}

export function impossibleGcEvents(records: readonly AgentRecord[], isolates: readonly IsolateEvents[], runWallMs: number | null): ImpossibleGcs {
  const events = new Set<GcEvent>();
  let worst: { event: GcEvent; why: string } | null = null;
  for (const group of isolates) {
    // The process's life bounds every isolate's clock in it (a worker's starts later).
    const main = records.find((r) => r.pid === group.pid && (r.threadId ?? 0) === 0);
    const lifeMs = main ? processWallMs(main) : runWallMs;
    let lastTime = -Infinity;
    for (const e of group.events) {
      const why =
        !Number.isFinite(e.timeMs) || !Number.isFinite(e.pauseMs)
          ? 'a number that is not finite'
          : lifeMs !== null && e.timeMs > lifeMs + SLACK_MS
            ? `a time of ${fmt(e.timeMs)} ms in a process that lived ${fmt(lifeMs)} ms`
            : e.pauseMs > e.timeMs + SLACK_MS
              ? `a pause of ${fmt(e.pauseMs)} ms at ${fmt(e.timeMs)} ms of the isolate's life`
              : e.timeMs + SLACK_MS < lastTime
                ? `a time of ${fmt(e.timeMs)} ms after one of ${fmt(lastTime)} ms in the same isolate`
                : null;
      if (why === null) {
        lastTime = Math.max(lastTime, e.timeMs);
        continue;
      }
      events.add(e);
      if (worst === null || e.pauseMs > worst.event.pauseMs) worst = { event: e, why };
    }
  }
  if (worst === null) return { events, warning: null };
  const n = events.size;
  return {
    events,
    warning:
      `${n} GC-shaped line${n === 1 ? '' : 's'} under the run's pids could not have come from V8 (${worst.why}, pid ${worst.event.pid}): ` +
      `left out of every GC figure; a program that prints lines shaped like V8's trace would cause this`,
  };
}

function fmt(ms: number): string {
  return Math.round(ms).toLocaleString('en-US');
}
