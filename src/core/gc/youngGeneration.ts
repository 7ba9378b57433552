/**
 * What the young generation really reached, in words that say which collector ran it. The new space
 * V8 reports (`v8.getHeapSpaceStatistics()`, sampled by the preload) is two semi-spaces with the
 * Scavenger but one space with Minor Mark-Sweep (`--minor-ms`): halving it there reported 27.9 MB for
 * a 56 MB young generation. And a run with no young-generation GC says nothing about its size.
 */
import type { YoungGeneration } from '../../shared/model/summary';
import { round } from '../util/stats';
import type { GcEvent } from './gcEvent';

const MB = 1024 * 1024;

/** The young-generation collector that ran, from the GC lines of one isolate (or a whole run). */
export function youngCollectorOf(events: readonly Pick<GcEvent, 'type'>[]): YoungGeneration['collector'] {
  let scavenger = false;
  for (const e of events) {
    if (e.type.startsWith('Minor ')) return 'Minor Mark-Sweep';
    if (e.type.startsWith('Scavenge')) scavenger = true;
  }
  return scavenger ? 'Scavenger' : null;
}

export function youngGeneration(collector: YoungGeneration['collector'], newSpaceMaxBytes: number | null): YoungGeneration {
  return { collector, newSpaceMB: newSpaceMaxBytes !== null && newSpaceMaxBytes > 0 ? round(newSpaceMaxBytes / MB, 3) : null };
}
