/**
 * What the young generation really reached, in words that say which collector ran it. The new space
 * V8 reports (`v8.getHeapSpaceStatistics()`, sampled by the preload) is two semi-spaces with the
 * Scavenger but one space with Minor Mark-Sweep (`--minor-ms`): halving it there reported 27.9 MB for
 * a 56 MB young generation. And a run with no young-generation GC says nothing about its size.
 */
import type { YoungGeneration } from '../summary/types';
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

/**
 * The size in `--max-semi-space-size`'s terms: the semi-space (half the new space) for the Scavenger,
 * the one new space for Minor Mark-Sweep; null when no young GC ran or nothing was measured.
 */
export function reachedSemiSpaceMB(young: YoungGeneration): number | null {
  if (young.collector === null || young.newSpaceMB === null) return null;
  return young.collector === 'Scavenger' ? round(young.newSpaceMB / 2, 3) : young.newSpaceMB;
}

/** "semi-space 16 MB (Scavenger, two semi-spaces)", "young generation 56 MB (Minor Mark-Sweep, one space)". */
export function describeYoungGeneration(young: YoungGeneration | undefined, semiSpaceMB: number | null, processes = 1): string {
  const several = processes > 1 ? `, largest of ${processes} processes` : '';
  if (!young) return semiSpaceMB === null ? 'semi-space not measured' : `semi-space ${fmtMB(semiSpaceMB)} reached`;
  if (young.collector === null) return 'no young-generation GC ran';
  const size = reachedSemiSpaceMB(young);
  if (size === null) return `young generation not measured (${young.collector})`;
  return young.collector === 'Scavenger'
    ? `semi-space ${fmtMB(size)} reached (Scavenger, two semi-spaces${several})`
    : `young generation ${fmtMB(size)} reached (Minor Mark-Sweep, one space${several})`;
}

function fmtMB(mb: number): string {
  return `${mb >= 10 ? mb.toFixed(0) : mb.toFixed(1)} MB`;
}
