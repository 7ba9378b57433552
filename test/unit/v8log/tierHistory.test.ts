/** Dating a code trace by the agent's size readings, and the tier history built from dated events. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { traceClock, traceClockError } from '../../../src/core/run/traceClock';
import { buildTierHistory } from '../../../src/core/v8log/tierHistory';
import type { V8Deopt, V8Function, V8LogAnalysis } from '../../../src/core/v8log/types';
import { tierClockText, tierNowText, tierSummaryText, tierTimeText } from '../../../src/shared/tierText';

describe('trace clock', () => {
  // Created 10–20 ms after the time origin: the isolate's clock is the origin's less 15 ms.
  const record = { isolateCreatedMs: [10, 20] as [number, number], codeTraceSizes: [[50, 100], [400, 100], [450, 300], [500, 900]] as [number, number][] };

  it('places a line between the last reading without it and the first with it, on the isolate clock', () => {
    const at = traceClock(record)!;
    assert.equal(at(0), 50 - 15); // there at the first reading: written by then
    assert.equal(at(150), (400 + 450) / 2 - 15);
    assert.equal(at(299), (400 + 450) / 2 - 15);
    assert.equal(at(300), (450 + 500) / 2 - 15);
  });

  it('says how far off each time can be: half the gap between the two readings that bracket the line', () => {
    const error = traceClockError(record)!;
    assert.equal(error(0), 0); // there at the first reading
    assert.equal(error(150), 25); // read on schedule, 50 ms apart
    assert.equal(error(300), 25);
    // 50 → 400: the agent could not read for 350 ms (the event loop was busy), were a line written then.
    assert.equal(traceClockError({ isolateCreatedMs: [10, 20], codeTraceSizes: [[50, 100], [400, 300]] })!(150), 175);
    assert.ok(Number.isNaN(error(900)));
  });

  it('does not date what was written after the last reading, nor a record without readings', () => {
    assert.ok(Number.isNaN(traceClock(record)!(900)));
    assert.equal(traceClockError({ isolateCreatedMs: [1, 2] }), undefined);
    assert.equal(traceClock({ isolateCreatedMs: [1, 2] }), undefined);
    assert.equal(traceClock({ codeTraceSizes: [[1, 2]] } as never), undefined);
  });
});

const fn = (name: string, line: number, optimizations: V8Function['optimizations']): V8Function => ({
  name, url: '/app/a.js', sourceUrl: '/app/a.js', line, column: 1, tiers: [], optimizations, optimizationDisabled: false, sourceRange: null,
});
const deopt = (f: V8Function, timeMs: number, seq: number): V8Deopt => ({
  isolate: 'code-1-0.asm', timeMs, kind: 'deopt-eager', reason: 'wrong map', position: null, inlinedAt: [], rawPosition: '', inliningId: -1, scriptOffset: -1, codeStart: '', optimizedFunction: f, tier: 'turbofan', marker: null, function: f, seq,
});

describe('tier history', () => {
  const hot = fn('hot', 3, [{ isolate: 'i', timeMs: 120, tier: 'maglev', seq: 0 }, { isolate: 'i', timeMs: 400, tier: 'turbofan', seq: 1 }, { isolate: 'i', timeMs: 1500, tier: 'turbofan', seq: 3 }]);
  const analysis: V8LogAnalysis = { v8Version: null, isolates: [], functions: [hot], deopts: [deopt(hot, 1200, 2)], counters: { lines: 0, truncatedLines: 0 } as never };
  const cpu = [
    { name: 'hot', url: 'file:///app/a.js', line: 3, column: 1, selfMs: 90, totalMs: 100 },
    { name: 'cold', url: 'file:///app/a.js', line: 9, column: 1, selfMs: 40, totalMs: 40 },
    { name: '(anonymous)', url: 'file:///app/a.js', line: 20, column: 5, selfMs: 30, totalMs: 30 },
  ];
  const history = buildTierHistory(analysis, cpu)!;

  it('follows a function through Maglev, TurboFan, a deopt and TurboFan again', () => {
    const h = history.functions[0]!;
    assert.deepEqual(h.events.map((e) => `${e.kind} ${e.tier} ${e.atMs}`), ['optimized Maglev 120', 'optimized TurboFan 400', 'deopt TurboFan 1200', 'optimized TurboFan 1500']);
    assert.equal(h.tierNow, 'TurboFan');
    assert.deepEqual([h.firstOptimizedMs, h.firstTurboFanMs, h.deopts, h.reoptimizations], [120, 400, 1, 1]);
    assert.equal(tierSummaryText(h), 'Maglev at 0.12 s, deoptimized 1×, re-optimized 1×, now TurboFan');
    assert.deepEqual(history.optimizationsPerSecond, [2, 1]);
  });

  it('says a named function without events was not optimized on its own, and an anonymous one is unknown', () => {
    assert.equal(tierNowText(history.functions[1]!), 'not optimized on its own');
    assert.equal(tierNowText(history.functions[2]!), 'unknown (anonymous)');
  });

  it('keeps each event\'s error, and marks a time approximate once it is past a reading missed', () => {
    const busy = fn('busy', 30, [{ isolate: 'i', timeMs: 156.7, tier: 'turbofan', seq: 0, timeErrorMs: 110.04 }]);
    const h = buildTierHistory({ ...analysis, functions: [busy], deopts: [] }, [{ name: 'busy', url: 'file:///app/a.js', line: 30, column: 1, selfMs: 5, totalMs: 5 }])!;
    assert.deepEqual(h.functions[0]!.events, [{ atMs: 156.7, atErrorMs: 110, kind: 'optimized', tier: 'TurboFan' }]);
    assert.equal(tierSummaryText(h.functions[0]!), 'TurboFan at ≈ 0.16 s (± 0.11 s), still TurboFan');
    assert.match(tierClockText(h), /≈ marks times within up to ± 0\.11 s: .* the event loop was busy/);
    assert.equal(tierTimeText(1200, 25), '1.20 s', 'on schedule: no mark');
    assert.equal(tierTimeText(1200, 50), '1.20 s');
    assert.equal(tierClockText(history), 'times on the GC trace’s clock, within 25 ms', 'events without a stated error: the resolution of a free loop');
    assert.equal(tierClockText({ ...history, timed: false }), 'in trace order, not dated');
  });

  it('is null when the run recorded no optimizations', () => {
    assert.equal(buildTierHistory({ ...analysis, functions: [], deopts: [] }, cpu), null);
  });
});
