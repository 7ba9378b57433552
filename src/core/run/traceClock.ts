/**
 * Dates the lines of a code trace, which has no times of its own: the agent read the file's size
 * every 50 ms and kept each change ([ms since the time origin, bytes]). A line at byte offset `o`
 * was written between the last reading that had not reached past it and the first that had: the
 * middle of those two readings is its time, within half the time between them. The agent reads on
 * the app's event loop, so while the app runs synchronous code (a script's main loop, a long
 * request) no reading is taken and the two that bracket a line can be far apart: that half-width is
 * the time's real error, kept beside it (`traceClockError`). The result is on the isolate's clock
 * (the GC trace's), placed by when the isolate was made (between V8's start and the environment's).
 */
import type { AgentRecord } from '../preload/agentRecord';

export type TraceTime = (offset: number) => number;

type ClockRecord = Pick<AgentRecord, 'codeTraceSizes' | 'isolateCreatedMs'> | null | undefined;

/** The readings that bracket a line at `offset` (ms since the time origin), and where the isolate started; null when undated. */
function bracketOf(record: ClockRecord): ((offset: number) => { before: number; after: number } | null) | undefined {
  const sizes = record?.codeTraceSizes;
  const created = record?.isolateCreatedMs;
  if (!Array.isArray(sizes) || sizes.length === 0 || !Array.isArray(created) || created.length !== 2) return undefined;
  const readings = sizes.filter((r): r is [number, number] => Array.isArray(r) && Number.isFinite(r[0]) && Number.isFinite(r[1]));
  if (readings.length === 0) return undefined;
  return (offset) => {
    // The first reading whose size is past the line's first byte: the line existed by then.
    let lo = 0;
    let hi = readings.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (readings[mid]![1] > offset) hi = mid;
      else lo = mid + 1;
    }
    if (lo >= readings.length) return null; // written after the last reading (at exit): not dated
    const after = readings[lo]![0];
    return { before: lo > 0 ? readings[lo - 1]![0] : after, after };
  };
}

export function traceClock(record: ClockRecord): TraceTime | undefined {
  const bracket = bracketOf(record);
  if (!bracket) return undefined;
  const created = record!.isolateCreatedMs!;
  const isolateAt = (created[0] + created[1]) / 2;
  return (offset) => {
    const b = bracket(offset);
    return b === null ? Number.NaN : (b.before + b.after) / 2 - isolateAt;
  };
}

/** How far off `traceClock`'s time of a line can be, ms (half the time between its bracketing readings); NaN when undated. */
export function traceClockError(record: ClockRecord): TraceTime | undefined {
  const bracket = bracketOf(record);
  if (!bracket) return undefined;
  return (offset) => {
    const b = bracket(offset);
    return b === null ? Number.NaN : (b.after - b.before) / 2;
  };
}
