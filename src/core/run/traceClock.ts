/**
 * Dates the lines of a code trace, which has no times of its own: the agent read the file's size
 * every 50 ms and kept each change ([ms since the time origin, bytes]). A line at byte offset `o`
 * was written between the last reading that had not reached past it and the first that had: the
 * middle of those two readings is its time, within 25 ms. The result is on the isolate's clock (the
 * GC trace's), placed by when the isolate was made (between V8's start and the environment's).
 */
import type { AgentRecord } from '../preload/agentRecord';

export type TraceTime = (offset: number) => number;

export function traceClock(record: Pick<AgentRecord, 'codeTraceSizes' | 'isolateCreatedMs'> | null | undefined): TraceTime | undefined {
  const sizes = record?.codeTraceSizes;
  const created = record?.isolateCreatedMs;
  if (!Array.isArray(sizes) || sizes.length === 0 || !Array.isArray(created) || created.length !== 2) return undefined;
  const readings = sizes.filter((r): r is [number, number] => Array.isArray(r) && Number.isFinite(r[0]) && Number.isFinite(r[1]));
  if (readings.length === 0) return undefined;
  const isolateAt = (created[0] + created[1]) / 2;
  return (offset) => {
    // The first reading whose size is past the line's first byte: the line existed by then.
    let lo = 0;
    let hi = readings.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (readings[mid]![1] > offset) hi = mid;
      else lo = mid + 1;
    }
    if (lo >= readings.length) return Number.NaN; // written after the last reading (at exit): not dated
    const after = readings[lo]![0];
    const before = lo > 0 ? readings[lo - 1]![0] : after;
    return (before + after) / 2 - isolateAt;
  };
}
