/**
 * The overhead bench's verdict on a budget: a figure whose 90% interval spans the budget is
 * "unsettled", never "met" or "missed" on the luck of its median (the allocation-heavy script's
 * rounds range over 30% on a noisy 2-core VM, against budgets of 2–3 points).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { intervalVerdict } from '../../../bench/measure';

describe('intervalVerdict (the overhead budgets)', () => {
  it('met only when the whole interval is within the budget', () => {
    assert.deepEqual(intervalVerdict(1.5, [-0.5, 2.9], 3), { met: true });
    assert.deepEqual(intervalVerdict(3, [3, 3], 3), { met: true });
  });

  it('missed only when the whole interval is beyond it', () => {
    assert.deepEqual(intervalVerdict(5.7, [3.4, 12.9], 3), { met: false });
  });

  it('unsettled, with the interval, when it spans the budget on either side of the point', () => {
    const over = intervalVerdict(3.9, [-0.4, 8.7], 2);
    assert.equal(over.met, false);
    assert.equal(over.unsettled, 'its 90% interval, -0.4 to 8.7, spans the target');
    const under = intervalVerdict(1.2, [-5.2, 3.3], 2);
    assert.equal(under.met, true);
    assert.match(under.unsettled ?? '', /-5\.2 to 3\.3, spans the target/);
  });
});
