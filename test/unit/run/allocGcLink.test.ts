/** Allocations beside the GC of the same time: hand-checkable events, then a recorded trace. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GcEvent } from '../../../src/core/gc/gcEvent';
import { gcInAllocationSpan, linkAllocationsToGc, withGcLink } from '../../../src/core/run/allocGcLink';
import type { AllocSummary } from '../../../src/shared/model/summary';

const MB = 1024 * 1024;

function event(timeMs: number, type: string, beforeMB: number, afterMB: number, pauseMs: number): GcEvent {
  return {
    pid: 1,
    isolate: '0xa',
    timeMs,
    type,
    interleaved: false,
    reduce: false,
    heapBeforeMB: beforeMB,
    committedBeforeMB: NaN,
    heapAfterMB: afterMB,
    committedAfterMB: NaN,
    pooledMB: null,
    pauseMs,
    externalMs: 0,
    incrementalMarking: null,
    mu: null,
    reason: 'allocation failure',
    collectorReason: '',
    source: 'trace-gc',
  };
}

/** The isolate started at epoch 1000; allocations were sampled from epoch 1100 to 1400 (isolate times 100–400). */
const START = 1000;
const SPAN = { startMs: 1100, endMs: 1400 };
const EVENTS = [
  event(50, 'Scavenge', 6, 4, 9), // before the span: only its "after" counts, as the starting point
  event(150, 'Scavenge', 12, 5, 1), // grew 8 MB
  event(250, 'Scavenge', 13, 5, 2), // grew 8 MB
  event(300, 'Mark-Compact', 9, 3, 10), // grew 4 MB; not a young GC
  event(350, 'Scavenge', 11, 4, 3), // grew 8 MB
  event(500, 'Scavenge', 12, 4, 100), // after the span
];

describe('gcInAllocationSpan', () => {
  it('counts the young GCs inside the span and the heap\'s growth between every GC, from the GC just before it', () => {
    const span = gcInAllocationSpan(EVENTS, START, SPAN, 32 * MB);
    assert.deepEqual(span, {
      youngGcs: 3,
      pauseMs: 6,
      traceAllocatedBytes: 28 * MB,
      gcLines: 4,
      // The Scavenger: two semi-spaces, so the young generation is half the new space.
      youngGenerationBytes: 16 * MB,
    });
  });

  it('gives Minor Mark-Sweep its one space, and knows nothing without GC in the span', () => {
    const minor = EVENTS.map((e) => (e.type === 'Scavenge' ? { ...e, type: 'Minor Mark-Sweep' } : e));
    assert.equal(gcInAllocationSpan(minor, START, SPAN, 32 * MB).youngGenerationBytes, 32 * MB);
    const none = gcInAllocationSpan(EVENTS, START, { startMs: 1410, endMs: 1490 }, null);
    assert.deepEqual(none, { youngGcs: 0, pauseMs: 0, traceAllocatedBytes: null, gcLines: 0, youngGenerationBytes: null });
  });
});

describe('linkAllocationsToGc', () => {
  const span = gcInAllocationSpan(EVENTS, START, SPAN, 32 * MB);

  it('agrees when the sampled bytes are near V8\'s account', () => {
    const link = linkAllocationsToGc(30 * MB, 960, [span]);
    assert.deepEqual(link, {
      youngGcs: 3,
      youngGcPauseMs: 6,
      bytesPerYoungGc: 10 * MB,
      youngGenerationBytes: 16 * MB,
      traceAllocatedBytes: 28 * MB,
      ratio: 1.071,
      disagreement: null,
    });
  });

  it('says so when they are far apart beyond what the trace cannot see (a young generation after the last GC, the rounding)', () => {
    // 28 MB traced; tolerance 14 MB + 16 MB unseen + 4 × 0.05 MB rounding = 30.2 MB either way.
    assert.equal(linkAllocationsToGc(58 * MB, 1856, [span]).disagreement, null);
    const over = linkAllocationsToGc(59 * MB, 1888, [span]).disagreement;
    assert.match(over ?? '', /^V8 Lens sampled 59\.0 MB allocated; V8's GC trace accounts for 28\.0 MB in the same time: the samples \(1888\) overestimate/);
    const small = { ...span, youngGenerationBytes: 1 * MB };
    assert.match(linkAllocationsToGc(2 * MB, 64, [small]).disagreement ?? '', /the samples \(64\) miss much of it/);
  });

  it('allows what chance gives a few samples: three standard deviations of the sampled total, √(traced × interval)', () => {
    // 28 MB traced at one sample per 4 MB: about 7 samples, σ = √(28 × 4) MB = 10.6 MB, 3σ = 31.7 MB,
    // past the 14 MB of LINK_TOLERANCE by 17.7 MB; with the 16.2 MB unseen, 47.9 MB either way.
    const small = { ...span, youngGenerationBytes: 16 * MB };
    assert.equal(linkAllocationsToGc(60 * MB, 15, [small], false, 4 * MB).disagreement, null);
    assert.match(linkAllocationsToGc(60 * MB, 15, [small]).disagreement ?? '', /the samples \(15\) overestimate/);
    assert.equal(linkAllocationsToGc(75 * MB, 19, [small], false, 4 * MB).disagreement, null);
    assert.match(linkAllocationsToGc(77 * MB, 19, [small], false, 4 * MB).disagreement ?? '', /the samples \(19\) overestimate/);
    // At 512 KB the same 28 MB takes about 56 samples: 3σ = 11.2 MB is within LINK_TOLERANCE and changes nothing.
    assert.equal(linkAllocationsToGc(59 * MB, 118, [span], false, 512 * 1024).disagreement, linkAllocationsToGc(59 * MB, 118, [span]).disagreement);
    assert.notEqual(linkAllocationsToGc(59 * MB, 118, [span], false, 512 * 1024).disagreement, null);
  });

  it('adds isolates up and compares per young GC with the largest young generation', () => {
    const other = { youngGcs: 1, pauseMs: 4, traceAllocatedBytes: 2 * MB, gcLines: 1, youngGenerationBytes: 8 * MB };
    const link = linkAllocationsToGc(30 * MB, 960, [span, other]);
    assert.equal(link.youngGcs, 4);
    assert.equal(link.youngGcPauseMs, 10);
    assert.equal(link.traceAllocatedBytes, 30 * MB);
    assert.equal(link.youngGenerationBytes, 16 * MB);
    assert.equal(link.ratio, 1);
  });

  it('without any GC in the span: no per-GC figure, no ratio, nothing to disagree with', () => {
    const none = gcInAllocationSpan([], START, SPAN, 2 * MB);
    assert.deepEqual(linkAllocationsToGc(MB, 32, [none]), {
      youngGcs: 0,
      youngGcPauseMs: 0,
      bytesPerYoungGc: null,
      youngGenerationBytes: null,
      traceAllocatedBytes: null,
      ratio: null,
      disagreement: null,
    });
  });
});

describe('withGcLink', () => {
  const alloc: AllocSummary = {
    samplingIntervalBytes: 32768,
    totalBytes: 100,
    bytesPerSecond: 10,
    bytesPerRequest: null,
    liveAtEndBytes: null,
    sampleCount: 3,
    functions: [
      { name: 'a', url: 'file:///a.js', line: 1, column: 1, selfBytes: 75, totalBytes: 75, share: 0.75 },
      { name: 'b', url: 'file:///a.js', line: 9, column: 1, selfBytes: 25, totalBytes: 25, share: 0.25 },
    ],
  };

  it('gives each function its share of the young-GC pause, as an estimate', () => {
    const link = linkAllocationsToGc(100, 3, [gcInAllocationSpan(EVENTS, START, SPAN, 32 * MB)]);
    const out = withGcLink(alloc, link);
    assert.deepEqual(out.functions.map((f) => f.youngGcPauseMsEstimate), [4.5, 1.5]);
    assert.equal(out.gcLink, link);
  });

  it('without a GC trace: no link and no estimate (null, never 0)', () => {
    const out = withGcLink(alloc, null);
    assert.equal(out.gcLink, null);
    assert.deepEqual(out.functions.map((f) => f.youngGcPauseMsEstimate), [null, null]);
  });
});

describe('V8\'s own copying beside survivors (--trace-gc-nvp)', () => {
  const nvpEvent = (timeMs: number, type: string, nvp: Record<string, number>) => ({ ...event(timeMs, type, 10, 5, 1), source: 'nvp' as const, nvp });

  it('adds up what the young GCs in the span kept young and promoted, and what every GC said was allocated', () => {
    const events = [
      nvpEvent(50, 'Scavenge', { new_space_survived: 999, promoted: 999, allocated: 999 }), // before the span
      nvpEvent(150, 'Scavenge', { new_space_survived: 300, promoted: 0, allocated: 4000 }),
      nvpEvent(250, 'Mark-Compact', { promoted: 5000, allocated: 1000 }), // a full GC's "promoted" is not a scavenge's copying
      nvpEvent(350, 'Scavenge', { new_space_survived: 200, promoted: 100, allocated: 4000 }),
    ];
    const span = gcInAllocationSpan(events, START, SPAN, null);
    assert.deepEqual(span.nvp, { copiedBytes: 500, promotedBytes: 100, allocatedBytes: 9000 });
    const link = linkAllocationsToGc(1000, 30, [span], true);
    assert.equal(link.copiedBytes, 500);
    assert.equal(link.promotedBytes, 100);
    assert.equal(link.nvpAllocatedBytes, 9000);
  });

  it('does not call survivors far below all that was allocated a disagreement, only survivors above it', () => {
    const span = { youngGcs: 10, pauseMs: 5, traceAllocatedBytes: 100 * MB, gcLines: 10, youngGenerationBytes: 1 * MB };
    assert.equal(linkAllocationsToGc(5 * MB, 160, [span], true).disagreement, null);
    assert.match(linkAllocationsToGc(5 * MB, 160, [span]).disagreement ?? '', /miss much of it/);
    assert.match(linkAllocationsToGc(400 * MB, 12800, [span], true).disagreement ?? '', /of survivors; V8's GC trace accounts for 100 MB allocated in all/);
  });
});
