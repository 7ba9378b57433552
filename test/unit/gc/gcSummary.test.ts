/** The GC part of summary.json, on hand-checkable events and on a recorded trace. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { GcEvent } from '../../../src/core/gc/gcEvent';
import { parseGcTraceText } from '../../../src/core/gc/gcTraceCollector';
import { summarizeGc } from '../../../src/core/gc/gcSummary';

function event(over: Partial<GcEvent>): GcEvent {
  return {
    pid: 100,
    isolate: '0xa',
    timeMs: 0,
    type: 'Scavenge',
    interleaved: false,
    reduce: false,
    heapBeforeMB: 10,
    committedBeforeMB: 20,
    heapAfterMB: 5,
    committedAfterMB: 20,
    pooledMB: null,
    pauseMs: 1,
    externalMs: 0,
    incrementalMarking: null,
    mu: { average: 1, current: 1 },
    reason: 'allocation failure',
    collectorReason: '',
    source: 'trace-gc',
    ...over,
  };
}

/**
 * Main isolate 0xa: 20 scavenges with pauses 1, 2, …, 20 ms (every 5th one "task", every 4th one
 * interleaved) at 10, 20, …, 200 ms, then two Mark-Compacts of 10 and 30 ms at 250 and 400 ms,
 * the first after 4.5 ms of incremental marking. A worker 0xb and a child process 200 also GC.
 */
function sampleEvents(): GcEvent[] {
  const events: GcEvent[] = [];
  for (let i = 1; i <= 20; i++) {
    events.push(event({ timeMs: 10 * i, pauseMs: i, reason: i % 5 === 0 ? 'task' : 'allocation failure', interleaved: i % 4 === 0 }));
    if (i === 3) events.push(event({ isolate: '0xb', timeMs: 7, pauseMs: 0.25 }));
    if (i === 5) events.push(event({ pid: 200, isolate: '0xc', timeMs: 3, type: 'Minor Mark-Sweep', pauseMs: 0.5 }));
  }
  events.push(
    event({
      timeMs: 250,
      type: 'Mark-Compact',
      pauseMs: 10,
      incrementalMarking: { ms: 4.5, steps: 12, biggestStepMs: 1, wallMs: 30 },
      reason: 'finalize incremental marking via task',
      collectorReason: 'GC in old space requested',
    }),
    event({ isolate: '0xb', timeMs: 90, type: 'Mark-Compact', pauseMs: 2 }),
    event({ timeMs: 400, type: 'Mark-Compact', reduce: true, pauseMs: 30, reason: 'heap profiler', collectorReason: 'GC in old space requested' }),
  );
  return events;
}

describe('summarizeGc', () => {
  it('summarises the main isolate: per-type stats, totals, reasons, wall share', () => {
    const s = summarizeGc(sampleEvents(), { unparsedLines: 2 });
    assert.deepEqual(s.byType, {
      // 1…20: total 210, mean 10.5, nearest-rank p95 = the 19th of 20 values, max 20
      Scavenge: { count: 20, totalMs: 210, meanMs: 10.5, p95Ms: 19, maxMs: 20 },
      // 10 and 30: p95 rank = ceil(0.95 × 2) = 2nd value
      'Mark-Compact': { count: 2, totalMs: 40, meanMs: 20, p95Ms: 30, maxMs: 30 },
    });
    assert.equal(s.totalPauseMs, 250);
    assert.equal(s.incrementalMarkingMs, 4.5);
    assert.equal(s.eventCount, 22);
    assert.deepEqual(s.byReason, { 'allocation failure': 16, task: 4, 'finalize incremental marking via task': 1, 'heap profiler': 1 });
    // No wall time given: the main isolate's last GC time, 400 ms → 250 / 400
    assert.equal(s.wallMs, 400);
    assert.equal(s.wallShare, 0.625);
    assert.equal(s.unparsedLines, 2);
    assert.equal(s.semiSpaceMB, null);
    assert.equal(s.semiSpaceRequestedMB, null);
    assert.deepEqual(s.isolate, { pid: 100, isolate: '0xa', eventCount: 22, totalPauseMs: 250 });
    assert.deepEqual(s.otherIsolates, [
      { pid: 100, isolate: '0xb', eventCount: 2, totalPauseMs: 2.25 },
      { pid: 200, isolate: '0xc', eventCount: 1, totalPauseMs: 0.5 },
    ]);
  });

  it('uses the given wall time and clamps the share to [0, 1]', () => {
    assert.equal(summarizeGc(sampleEvents(), { wallMs: 1000 }).wallShare, 0.25);
    const short = summarizeGc(sampleEvents(), { wallMs: 100 });
    assert.equal(short.wallMs, 100);
    assert.equal(short.wallShare, 1);
    assert.equal(summarizeGc(sampleEvents(), { wallMs: 0 }).wallShare, 0);
  });

  it('passes the semi-space figures through', () => {
    const s = summarizeGc(sampleEvents(), { semiSpaceMB: 16, semiSpaceRequestedMB: 64 });
    assert.equal(s.semiSpaceMB, 16);
    assert.equal(s.semiSpaceRequestedMB, 64);
  });

  it('takes the first isolate of the launched pid as the main one', () => {
    const child = summarizeGc(sampleEvents(), { mainPid: 200 });
    assert.deepEqual(child.isolate, { pid: 200, isolate: '0xc', eventCount: 1, totalPauseMs: 0.5 });
    assert.deepEqual(Object.keys(child.byType), ['Minor Mark-Sweep']);
    assert.equal(child.wallMs, 3);
    assert.deepEqual(
      child.otherIsolates.map((i) => i.isolate),
      ['0xa', '0xb'],
    );
    // A pid that printed nothing (a wrapper such as npm): fall back to the first isolate seen.
    assert.equal(summarizeGc(sampleEvents(), { mainPid: 999 }).isolate?.isolate, '0xa');
    assert.equal(summarizeGc(sampleEvents(), { mainPid: 100 }).isolate?.isolate, '0xa');
  });

  it('rounds ms figures to the microsecond', () => {
    const s = summarizeGc([event({ pauseMs: 0.1 }), event({ pauseMs: 0.2, timeMs: 3 })]);
    assert.equal(s.totalPauseMs, 0.3);
    assert.equal(s.byType.Scavenge?.meanMs, 0.15);
    assert.equal(s.wallShare, 0.1);
  });

  it('leaves NVP events (no reason) out of byReason', () => {
    const s = summarizeGc([event({ reason: '', source: 'nvp', mu: null, timeMs: 10 })]);
    assert.deepEqual(s.byReason, {});
    assert.equal(s.eventCount, 1);
  });

  it('gives a valid, empty summary for no events', () => {
    assert.deepEqual(summarizeGc([]), {
      byType: {},
      totalPauseMs: 0,
      incrementalMarkingMs: 0,
      wallShare: 0,
      wallMs: 0,
      semiSpaceMB: null,
      semiSpaceRequestedMB: null,
      eventCount: 0,
      byReason: {},
      unparsedLines: 0,
      isolate: null,
      otherIsolates: [],
      helperThreads: null,
    });
  });

  it('summarises the recorded Node 20 trace (figures from grep/awk on the file)', () => {
    const { events, unparsedLines } = parseGcTraceText(readFileSync(join(__dirname, '..', '..', 'fixtures', 'gc', 'node20.txt'), 'utf8'));
    const s = summarizeGc(events, { unparsedLines, mainPid: 5069 });
    assert.deepEqual(s.isolate, { pid: 5069, isolate: '0x1452ac40', eventCount: 35, totalPauseMs: 102.92 });
    assert.deepEqual(s.otherIsolates, [
      { pid: 5069, isolate: '0x7fa938000f00', eventCount: 13, totalPauseMs: 17.06 },
      { pid: 5077, isolate: '0x23bd6dd0', eventCount: 8, totalPauseMs: 12.59 },
    ]);
    assert.equal(s.byType.Scavenge?.count, 31);
    assert.equal(s.byType.Scavenge?.p95Ms, 4.71); // 30th of the 31 sorted scavenge pauses
    assert.equal(s.byType.Scavenge?.maxMs, 5.01);
    assert.equal(s.byType['Mark-Compact']?.count, 4);
    assert.equal(s.incrementalMarkingMs, 18.4);
    assert.equal(s.wallMs, 322);
    assert.equal(s.wallShare, Math.round((102.92 / 322) * 1e6) / 1e6);
    assert.deepEqual(s.byReason, { 'allocation failure': 30, 'finalize incremental marking via task': 1, testing: 2, 'heap profiler': 2 });
  });
});
