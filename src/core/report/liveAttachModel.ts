/**
 * The report model while V8 Lens is attached: the GC events so far, no CPU profile yet (it comes
 * when profiling stops), and the counters of the live banner.
 */
import { ATTACH_NOTES } from '../attach/attachNotes';
import { attachedToGcEvents, type AttachedGcEvent } from '../attach/gcEventsFile';
import { isYoungGenerationGc } from '../gc/gcEvent';
import { summarizeGc } from '../gc/gcSummary';
import type { GcPoint, LiveAttachStatus, ReportModel } from './reportModelTypes';

export const PROFILE_PENDING = 'the CPU profile appears when profiling stops (V8 Lens: Stop & Collect)';

export function liveAttachModel(runDir: string, title: string, events: readonly AttachedGcEvent[]): ReportModel {
  const gcEvents = attachedToGcEvents(events, 0);
  const points: GcPoint[] = gcEvents.map((e) => ({ timeMs: e.timeMs, pauseMs: e.pauseMs, type: e.type, reason: e.reason, heapBeforeMB: e.heapBeforeMB, heapAfterMB: e.heapAfterMB }));
  return {
    title,
    source: runDir,
    summary: {
      schemaVersion: 1,
      source: { kind: 'run', path: runDir },
      cpu: null,
      gc: gcEvents.length > 0 ? summarizeGc(gcEvents) : null,
      deopts: [],
      deoptFunctions: [],
      optimizedFunctions: [],
      deoptCoverage: 'not-collected',
      warnings: [PROFILE_PENDING, ATTACH_NOTES.deopts],
    },
    session: null,
    flame: null,
    gcEvents: points,
  };
}

const isScavenge = (e: AttachedGcEvent) => isYoungGenerationGc(e.type);

export function liveAttachStatus(pid: number | null, events: readonly AttachedGcEvent[], elapsedSeconds: number, state: LiveAttachStatus['state']): LiveAttachStatus {
  const last = events[events.length - 1];
  const scavenges = events.filter(isScavenge).length;
  const lastSecond = last ? events.filter((e) => isScavenge(e) && e.timeMs > last.timeMs - 1000).length : 0;
  return { pid, elapsedSeconds, gcEvents: events.length, scavenges, scavengesPerSecond: lastSecond, heapUsedMB: last ? last.heapUsedMB : null, state };
}
