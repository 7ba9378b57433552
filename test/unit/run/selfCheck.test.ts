/**
 * The run's self-check: raw counts held against what was read, a gap made visible (the sentence every
 * front end shows), a figure that could not be read left out rather than shown as zero or "none".
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildSelfCheck, deoptCoverageAfterCheck, gcUnreadable } from '../../../src/core/run/selfCheck';
import { hasGap, selfCheckGaps } from '../../../src/shared/selfCheckText';

const gc = (gcLines: number, eventsRead: number, nvpAllocatedLines = 0, nvpAllocatedRead = 0) => ({ gcLines, eventsRead, nvpAllocatedLines, nvpAllocatedRead });

describe('buildSelfCheck', () => {
  it('keeps each kind that had something to check, matching or not', () => {
    assert.deepEqual(buildSelfCheck({ gc: gc(41, 41, 0, 0), deopts: { seen: 5, read: 5 }, optimizations: { seen: 0, read: 0 } }), { gcLines: { seen: 41, read: 41 }, deopts: { seen: 5, read: 5 } });
    assert.deepEqual(buildSelfCheck({ gc: gc(333, 333, 333, 333), deopts: null, optimizations: null }), { gcLines: { seen: 333, read: 333 }, nvpAllocated: { seen: 333, read: 333 } });
    assert.equal(buildSelfCheck({ gc: gc(0, 0), deopts: null, optimizations: null }), null);
    assert.equal(buildSelfCheck({ gc: null, deopts: null, optimizations: null }), null);
  });
});

describe('selfCheckGaps: the sentences', () => {
  it('says what V8 printed and what was read, for each kind with a gap, and nothing when all match', () => {
    const check = buildSelfCheck({ gc: gc(41, 9, 2, 0), deopts: { seen: 5, read: 0 }, optimizations: { seen: 12, read: 12 } });
    assert.deepEqual(
      selfCheckGaps(check).map((g) => g.text),
      [
        'V8 printed 41 GC events, V8 Lens read 9: this Node’s trace format is not fully understood',
        'V8 traced 5 deopts, V8 Lens read 0: this Node’s trace format is not fully understood',
        'V8 printed the allocated bytes of 2 GCs, V8 Lens read 0: this Node’s trace format is not fully understood',
      ],
    );
    assert.ok(hasGap(check, 'deopts') && hasGap(check, 'gcLines') && !hasGap(check, 'optimizations'));
    assert.deepEqual(selfCheckGaps({ gcLines: { seen: 3, read: 3 } }), []);
    assert.deepEqual(selfCheckGaps(null), []);
    assert.deepEqual(selfCheckGaps(undefined), []);
  });
});

describe('what a gap does to the figures', () => {
  it('GC lines seen and none read: the GC figures are not collected, with the reason', () => {
    assert.match(gcUnreadable(buildSelfCheck({ gc: gc(41, 0), deopts: null, optimizations: null }))!, /^GC: V8 printed 41 GC events and V8 Lens could read none/);
    assert.equal(gcUnreadable(buildSelfCheck({ gc: gc(41, 9), deopts: null, optimizations: null })), null, 'some read: the figures stay, with the warning');
    assert.equal(gcUnreadable(null), null);
  });

  it('deopts seen and none read: "not collected", never an empty list that reads as none', () => {
    const warnings: string[] = [];
    assert.equal(deoptCoverageAfterCheck({ deopts: { seen: 5, read: 0 } }, 'collected', warnings), 'not-collected');
    assert.match(warnings[0]!, /^deopts: V8 traced 5 deopts and V8 Lens could read none/);
  });

  it('deopts partly read: "partial", with a warning; all read: unchanged', () => {
    const warnings: string[] = [];
    assert.equal(deoptCoverageAfterCheck({ deopts: { seen: 5, read: 3 } }, 'collected', warnings), 'partial');
    assert.match(warnings[0]!, /V8 traced 5 deopts and V8 Lens read 3 .* incomplete/);
    assert.equal(deoptCoverageAfterCheck({ deopts: { seen: 5, read: 5 } }, 'collected', []), 'collected');
    assert.equal(deoptCoverageAfterCheck(null, 'partial', []), 'partial');
  });
});
