/**
 * The report model while V8 Lens is attached: the GC events so far, no CPU profile yet (it comes
 * when profiling stops), and the counters of the live banner. Like the final report, it counts only
 * the collections begun inside the attached window, and the GC share is over the window's length
 * (not the process's uptime, which is what the observer's clock measures).
 */
import { ATTACH_NOTES } from '../run/attachNotes';
import { splitByWindow, type AttachWindow } from '../run/attachWindow';
import { attachedToGcEvents, type AttachedGcEvent } from '../run/gcEventsFile';
import { isYoungGenerationGc } from '../gc/gcEvent';
import { summarizeGc } from '../gc/gcSummary';
import { emptySummary } from '../../shared/model/summary';
import type { GcPoint, LiveAttachStatus, ReportModel } from '../../shared/model/reportModel';

export const PROFILE_PENDING = 'the CPU profile appears when profiling stops (V8 Lens: Stop & Collect)';

/** The window so far: where it starts on the target's clock, and how long it has been open. */
export interface LiveWindow {
  window: AttachWindow;
  elapsedMs: number;
}

export function liveAttachModel(runDir: string, title: string, events: readonly AttachedGcEvent[], live: LiveWindow): ReportModel {
  const gcEvents = attachedToGcEvents(splitByWindow(events, live.window).inside, 0);
  const points: GcPoint[] = gcEvents.map((e) => ({ timeMs: e.timeMs, pauseMs: e.pauseMs, type: e.type, reason: e.reason, heapBeforeMB: e.heapBeforeMB, heapAfterMB: e.heapAfterMB }));
  return {
    title,
    source: runDir,
    summary: emptySummary(
      { kind: 'run', path: runDir },
      {
        gc: gcEvents.length > 0 ? summarizeGc(gcEvents, { wallMs: Math.max(live.elapsedMs, 1) }) : null,
        warnings: [PROFILE_PENDING, ATTACH_NOTES.deopts],
      },
    ),
    session: null,
    flame: null,
    gcEvents: points,
  };
}

const isScavenge = (e: AttachedGcEvent) => isYoungGenerationGc(e.type);

export function liveAttachStatus(pid: number | null, events: readonly AttachedGcEvent[], live: LiveWindow, state: LiveAttachStatus['state']): LiveAttachStatus {
  const inside = splitByWindow(events, live.window).inside;
  const last = inside[inside.length - 1];
  const scavenges = inside.filter(isScavenge).length;
  const lastSecond = last ? inside.filter((e) => isScavenge(e) && e.timeMs > last.timeMs - 1000).length : 0;
  return { pid, elapsedSeconds: live.elapsedMs / 1000, gcEvents: inside.length, scavenges, scavengesPerSecond: lastSecond, heapUsedMB: last ? last.heapUsedMB : null, state };
}
