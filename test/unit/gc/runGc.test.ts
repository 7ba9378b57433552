import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GcEvent } from '../../../src/core/gc/gcEvent';
import { summarizeRunGc } from '../../../src/core/gc/gcSummary';
import { gcInWindow } from '../../../src/core/gc/gcWindow';
import { parseTraceGcLine } from '../../../src/core/gc/traceGcLine';

/** A real Node 20 --trace-gc line for pid/isolate, at `ms` with a `pause`. */
function scavenge(pid: number, isolate: string, ms: number, pause: number): GcEvent {
  const line = `[${pid}:${isolate}]     ${ms} ms: Scavenge 4.4 (4.5) -> 3.9 (5.5) MB, ${pause.toFixed(2)} / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; `;
  const event = parseTraceGcLine(line);
  assert.ok(event, line);
  return event;
}

describe('summarizeRunGc: several processes read as one run', () => {
  const worker = (pid: number, n: number, pause: number) => Array.from({ length: n }, (_, i) => scavenge(pid, '0x1', 10 + i, pause));

  it('pools the events, and the share is the total pause over their wall times added up: within theirs, never their sum', () => {
    const parts = [
      { events: [], wallMs: 5000, newSpaceMaxBytes: 2 * 2 ** 20 }, // an idle primary: 0%
      { events: worker(2, 300, 1), wallMs: 5000, newSpaceMaxBytes: 16 * 2 ** 20 }, // 6%
      { events: worker(3, 450, 1), wallMs: 5000, newSpaceMaxBytes: 32 * 2 ** 20 }, // 9%
    ];
    const gc = summarizeRunGc(parts, { pid: 1, isolate: '0x1' }, { semiSpaceRequestedMB: null, unparsedLines: 0 });
    assert.equal(gc.eventCount, 750);
    assert.equal(gc.totalPauseMs, 750);
    assert.equal(gc.wallMs, 15000);
    assert.equal(gc.wallShare, 0.05); // not 0.15 (750 ms over one 5 s window)
    assert.equal(gc.byType.Scavenge!.count, 750);
    assert.deepEqual(gc.youngGeneration, { collector: 'Scavenger', newSpaceMB: 32 });
    assert.equal(gc.semiSpaceMB, 16, 'the largest semi-space any process reached');
  });

  it('never above 1, and a run without young GC has no young-generation size', () => {
    const gc = summarizeRunGc([{ events: worker(2, 10, 50), wallMs: 100, newSpaceMaxBytes: 2 ** 20 }], null, { semiSpaceRequestedMB: 8, unparsedLines: 0 });
    assert.equal(gc.wallShare, 1);
    const idle = summarizeRunGc([{ events: [], wallMs: 100, newSpaceMaxBytes: 2 ** 20 }], null, { semiSpaceRequestedMB: 8, unparsedLines: 0 });
    assert.equal(idle.youngGeneration!.collector, null);
    assert.equal(idle.semiSpaceMB, null);
    assert.equal(idle.semiSpaceRequestedMB, 8);
  });
});

describe('summarizeRunGc: a process with worker threads', () => {
  // The numbers: the main thread paused 497 ms in 10.07 s; two pool workers lived as long
  // and collected three times between them. Their pooled share was 1.6%: the main thread's is 4.9%.
  const main = Array.from({ length: 100 }, (_, i) => scavenge(7, '0x2988c720', 20 + i * 90, 4.97));
  const parts = [
    { events: main, wallMs: 10_070, newSpaceMaxBytes: 16 * 2 ** 20, thread: { id: '7', pid: 7, serving: true } },
    { events: [scavenge(7, '0x7f98d4000f00', 40, 1), scavenge(7, '0x7f98d4000f00', 80, 1)], wallMs: 10_050, newSpaceMaxBytes: 2 ** 20, thread: { id: '7/1', pid: 7, serving: false } },
    { events: [scavenge(7, '0x7f98d0000f00', 40, 1)], wallMs: 10_050, newSpaceMaxBytes: 2 ** 20, thread: { id: '7/2', pid: 7, serving: false } },
  ];
  const gc = summarizeRunGc(parts, { pid: 7, isolate: '0x2988c720' }, { semiSpaceRequestedMB: null, unparsedLines: 0 });

  it("gives the main thread's own share, its pause over its own wall time, and says whose", () => {
    assert.equal(gc.wallShare, Math.round((497 / 10_070) * 1e6) / 1e6);
    assert.equal(gc.wallMs, 10_070);
    assert.deepEqual(gc.shareOf, { processes: ['7'], label: 'the main thread (pid 7)', pauseMs: 497, wallMs: 10_070 });
  });

  it("keeps every isolate's events and pause in the counts", () => {
    assert.equal(gc.eventCount, 103);
    assert.equal(gc.totalPauseMs, 500);
  });

  it('without worker threads, the share is as before and says nobody in particular', () => {
    const plain = summarizeRunGc([parts[0]!], { pid: 7, isolate: '0x2988c720' }, { semiSpaceRequestedMB: null, unparsedLines: 0 });
    assert.equal(plain.shareOf, undefined);
    assert.equal(plain.wallShare, gc.wallShare);
  });
});

describe('gcInWindow: a load window over several processes', () => {
  const tally = (pid: number, scavenges: number, pauseMs: number) => ({ pid, isolate: '0x1', counts: { Scavenge: scavenges }, pauseMs });

  it('per process with GC in the window, and the share over the window times the processes', () => {
    const start = { at: 1000, isolates: [tally(1, 2, 1), tally(2, 10, 10)] };
    const end = { at: 6000, isolates: [tally(1, 2, 1), tally(2, 310, 310), tally(3, 450, 450)] };
    const w = gcInWindow(start, end);
    assert.deepEqual(w.processes!.map((p) => [p.pid, p.events, p.pauseMs, p.wallShare]), [[2, 300, 300, 0.06], [3, 450, 450, 0.09]]);
    assert.equal(w.events, 750);
    assert.equal(w.scavenges, 750);
    assert.equal(w.wallShare, 0.075, 'over the two processes that collected: 750 ms in 2 × 5 s');
    assert.equal(gcInWindow(start, end, 3).wallShare, 0.05, 'three processes alive: 750 ms in 3 × 5 s');
  });

  it("counts every full GC, Node 26's \"Incremental Mark-Compact\" too, and every young one", () => {
    const counts = (c: Record<string, number>) => ({ pid: 1, isolate: '0x1', counts: c, pauseMs: 0 });
    const start = { at: 0, isolates: [counts({ Scavenge: 1 })] };
    const end = { at: 1000, isolates: [counts({ Scavenge: 11, 'Mark-Compact': 1, 'Incremental Mark-Compact': 3, 'Minor Mark-Sweep': 2 })] };
    const w = gcInWindow(start, end);
    assert.equal(w.events, 16);
    assert.equal(w.scavenges, 12);
    assert.equal(w.markCompacts, 4);
  });
});
