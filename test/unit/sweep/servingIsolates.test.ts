/** The lab's GC share is of each process's main thread: which isolate that is, from the trace lines alone. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GcEvent } from '../../../src/core/gc/gcEvent';
import { parseTraceGcLine } from '../../../src/core/gc/traceGcLine';
import { servingIsolates } from '../../../src/core/sweep/servingIsolates';

function scavenge(pid: number, isolate: string, ms: number): GcEvent {
  const line = `[${pid}:${isolate}]     ${ms} ms: Scavenge 4.4 (4.5) -> 3.9 (5.5) MB, 1.00 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; `;
  const event = parseTraceGcLine(line);
  assert.ok(event, line);
  return event;
}

describe('servingIsolates', () => {
  it("takes each process's oldest isolate, even when a worker printed the first line", () => {
    // A pool worker (started 300 ms after the main thread) collects first, 20 ms into its life.
    const events = [scavenge(7, '0x7f00', 20), scavenge(7, '0x2988', 400), scavenge(7, '0x7f00', 150), scavenge(9, '0x3000', 50)];
    const arrivals = [10_320, 10_401, 10_451, 10_600];
    assert.deepEqual([...servingIsolates(events, arrivals, 20_000)].sort(), ['7:0x2988', '9:0x3000']);
  });

  it('counts only what had arrived by the end', () => {
    const events = [scavenge(7, '0x2988', 400), scavenge(9, '0x3000', 50)];
    assert.deepEqual([...servingIsolates(events, [10_400, 10_600], 10_500)], ['7:0x2988']);
  });
});
