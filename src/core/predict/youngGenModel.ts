/**
 * What one isolate's scavenges would be at another semi-space size, from its inputs (youngGenInputs.ts).
 * The model, as the README gives it:
 *
 * - A scavenge runs when the app has filled the semi-space (what the last scavenge kept included) to
 *   V8's trigger: full, or 80% plus what the app allocates before the scavenge task runs. At a bigger
 *   size the task wins more often, so the filled share falls toward 80% (fillAt). The bytes between
 *   two scavenges are that share of the size less what the last one kept, and scavenges per request
 *   = bytes allocated per request ÷ those bytes.
 * - What a scavenge keeps is the objects still alive when it runs. Request-scoped data (alive for a
 *   request's few ms of I/O) is the same at any size; what lives longer than two scavenges apart (a
 *   cache) is kept, then promoted, and its bytes per scavenge grow with the time between them.
 * - A scavenge's pause is a part per scavenge (roots, the request data it copies) and parts that grow
 *   with the time between scavenges or with the size (long-lived objects copied then promoted, old
 *   objects pointing at young ones, V8's work per page of the semi-space). A bigger semi-space costs
 *   per request between every scavenge costing what it costs now (low, the run's 95% interval) and
 *   every request costing what it costs now (high: nothing gained); expected halfway, geometrically.
 * - Promotions (and the Mark-Compacts they bring) per request stay as they are when the promoted
 *   objects outlive every interval (expected, high), and fall with the size when they were only just
 *   older than two intervals (low).
 * Pretenured allocation sites allocate old: their bytes are in the allocation between GCs but fill
 * no semi-space, and the model holds their share as measured (the same decisions at every size).
 */
import type { PredictedRange, PredictionIsolate } from '../../shared/model/prediction';
import { round } from '../util/stats';
import { TASK_TRIGGER } from './youngGenInputs';

/** The fill at which allocation fails and V8 scavenges at once (the pages' usable area, measured on Node 20: 97.6%). */
const FULL_FILL = 0.98;

/** One isolate at `semiSpaceBytes`: its figures per unit (per 1,000 requests, or per second). */
export interface IsolateAtSize {
  scavengesPerUnit: number;
  youngPauseMsPerUnit: PredictedRange;
  promotedBytesPerUnit: PredictedRange;
  markCompactsPerUnit: PredictedRange;
  /** Bytes a scavenge would copy (kept young + promoted). */
  copiedBytesPerScavenge: number;
  /** Bytes allocated between two scavenges. */
  usableBytes: number;
}

/** The survivors of one scavenge split by lifetime (see the file comment). */
interface Survivors {
  /** Kept young and never promoted: request-scoped data, the same at any size. */
  shortBytes: number;
  /** Kept young for a first time, and promoted at the next scavenge: grows with the interval. */
  longFirstBytes: number;
  promotedBytes: number;
}

function survivorsOf(iso: PredictionIsolate): Survivors {
  const promoted = iso.promotedBytesPerScavenge;
  const kept = iso.keptBytesPerScavenge;
  const longFirst = Math.min(kept, promoted);
  return { shortBytes: kept - longFirst, longFirstBytes: longFirst, promotedBytes: promoted };
}

export function isolateAtSize(iso: PredictionIsolate, semiSpaceBytes: number): IsolateAtSize {
  const ratio = semiSpaceBytes / iso.semiSpaceBytes;
  const s = survivorsOf(iso);
  const keptNow = s.shortBytes + s.longFirstBytes;
  const keptAt = s.shortBytes + ratio * s.longFirstBytes;
  // At least a tenth of the space is left to allocate in, whatever the survivors (V8 grows or promotes before).
  const usableBytes = Math.max(fillAt(iso, keptNow, ratio) * semiSpaceBytes - keptAt, 0.1 * semiSpaceBytes);
  const scavenges = iso.allocatedBytesPerUnit / usableBytes;
  const copiedAt = s.shortBytes + ratio * (s.longFirstBytes + s.promotedBytes);

  // The same work per request as now: the scavenges the model gives at the run's own size.
  const scavengesNow = iso.allocatedBytesPerUnit / iso.usableBytes;
  // Bigger: from every scavenge costing what it costs now (within the run's spread) to every request
  // costing what it costs now; expected halfway between, geometrically (a scavenge at 4× the size
  // pausing 2× as long), as the services measured did. Smaller: the reverse.
  const [fewer, more] = ratio >= 1 ? [scavenges, scavengesNow] : [scavengesNow, scavenges];
  const pause = {
    low: fewer * iso.meanScavengeLowMs,
    expected: Math.sqrt(fewer * more) * iso.meanScavengeMs,
    high: more * iso.meanScavengeHighMs,
  };

  // Promoted bytes per unit: held when the promoted objects outlive every interval; down to
  // 1/ratio of now when they were only just older than two intervals (and up, at a smaller size).
  const promotedNow = iso.promotedBytesPerScavenge * iso.scavengesPerUnit;
  const promotedHeld = scavenges * ratio * s.promotedBytes;
  const promoted = ratio >= 1 ? ordered(promotedNow / ratio, promotedHeld, Math.max(promotedHeld, promotedNow)) : ordered(promotedHeld, promotedHeld, promotedNow / ratio);
  // Mark-Compacts follow the old generation's growth; without promotions (pretenured sites, external memory) they stay.
  const mcOf = (bytes: number) => iso.markCompactsPerUnit * (promotedNow > 0 ? bytes / promotedNow : 1);
  return {
    scavengesPerUnit: scavenges,
    youngPauseMsPerUnit: ordered(pause.low, pause.expected, pause.high),
    promotedBytesPerUnit: promoted,
    markCompactsPerUnit: ordered(mcOf(promoted.low), mcOf(promoted.expected), mcOf(promoted.high)),
    copiedBytesPerScavenge: copiedAt,
    usableBytes,
  };
}

/**
 * Requests (or seconds) V8 would take to grow the isolate's new space from its size now to
 * `semiSpaceBytes` on its own: it doubles the new space once the bytes its scavenges kept and
 * promoted since the last growth add up to the new space's size. 'never' when nothing survives to
 * grow it; null when the run's trace does not say what a scavenge kept.
 */
export function growthUnits(iso: PredictionIsolate, semiSpaceBytes: number, unitsPerFigure: number): number | 'never' | null {
  if (semiSpaceBytes <= iso.semiSpaceBytes) return 0;
  // What a scavenge kept is not in --trace-gc: how fast V8 would grow the space is not known.
  if (iso.keptSource === 'none') return null;
  let units = 0;
  for (let size = iso.semiSpaceBytes; size < semiSpaceBytes; size *= 2) {
    const at = isolateAtSize(iso, size);
    if (!(at.copiedBytesPerScavenge > 0) || !(iso.allocatedBytesPerUnit > 0)) return 'never';
    const scavenges = size / at.copiedBytesPerScavenge;
    units += (scavenges * at.usableBytes * unitsPerFigure) / iso.allocatedBytesPerUnit;
  }
  return units;
}

/**
 * The share of the semi-space filled (allocated + what the last scavenge kept) when a scavenge runs
 * at `ratio` times the run's size. V8 posts its scavenge task at 80% and runs it when the event loop
 * gets to it, or scavenges at once when the space is full: at a bigger size the task wins more
 * often, so the share falls toward 80% (halfway, geometrically, per doubling, as measured: 94% at
 * 16 MB, 91% at 32, 87% at 64 on the short-lived fixture).
 */
function fillAt(iso: PredictionIsolate, keptNow: number, ratio: number): number {
  const fill = (iso.usableBytes + keptNow) / iso.semiSpaceBytes;
  // More than full: pretenured allocation (old, outside the semi-space) in the bytes between scavenges; held.
  if (fill <= TASK_TRIGGER || fill > 1) return fill;
  return Math.min(FULL_FILL, TASK_TRIGGER + (fill - TASK_TRIGGER) / Math.sqrt(ratio));
}

/** A range from three estimates, low ≤ expected ≤ high, rounded for the summary. */
function ordered(a: number, b: number, c: number): PredictedRange {
  const [low, expected, high] = [a, b, c].sort((x, y) => x - y) as [number, number, number];
  return { low: round(low, 4), expected: round(expected, 4), high: round(high, 4) };
}
