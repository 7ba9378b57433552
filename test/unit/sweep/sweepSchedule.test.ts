/** Interleaved, rotated schedule (gc.md section 9, step 3). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { labSchedule, sweepSchedule } from '../../../src/core/sweep/sweepSchedule';
import { runPurpose } from '../../../src/shared/model/sweep';
import { labSurvivorsCell } from '../../../src/shared/survivorsText';

describe('sweepSchedule', () => {
  it('rotates the order left by one every round (5 sizes × 3 rounds)', () => {
    const runs = sweepSchedule([16, 32, 64, 128, 256], 3);
    assert.equal(runs.length, 15);
    assert.deepEqual(
      runs.map((r) => r.value),
      [16, 32, 64, 128, 256, 32, 64, 128, 256, 16, 64, 128, 256, 16, 32],
    );
    assert.deepEqual(
      runs.map((r) => r.round),
      [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2],
    );
    assert.deepEqual(
      runs.map((r) => r.index),
      Array.from({ length: 15 }, (_, i) => i),
    );
  });

  it('runs every size once per round, and each size at a different position every round', () => {
    const sizes = [8, 16, 32, 64, 128];
    const runs = sweepSchedule(sizes, 5);
    for (let round = 0; round < 5; round++) {
      const inRound = runs.filter((r) => r.round === round).map((r) => r.value);
      assert.deepEqual([...inRound].sort((a, b) => a - b), sizes);
    }
    for (const size of sizes) {
      const positions = runs.filter((r) => r.value === size).map((r) => r.index % sizes.length);
      assert.equal(new Set(positions).size, 5, `${size} MB always at the same position`);
    }
  });

  it('handles empty input, one size, zero or fractional rounds', () => {
    assert.deepEqual(sweepSchedule([], 3), []);
    assert.deepEqual(sweepSchedule([16, 32], 0), []);
    assert.deepEqual(sweepSchedule([16, 32], -1), []);
    assert.deepEqual(
      sweepSchedule([64], 2),
      [
        { value: 64, round: 0, index: 0 },
        { value: 64, round: 1, index: 1 },
      ],
    );
    assert.equal(sweepSchedule([16, 32], 2.7).length, 4);
  });
});

describe('labSchedule', () => {
  it('runs one profiling run per value after the measured rounds, numbered on', () => {
    const s = labSchedule([16, 64], 2, true);
    assert.deepEqual(
      s.map((r) => [r.value, r.round, r.index, r.purpose ?? 'measure']),
      [
        [16, 0, 0, 'measure'],
        [64, 0, 1, 'measure'],
        [64, 1, 2, 'measure'],
        [16, 1, 3, 'measure'],
        [16, 2, 4, 'profile'],
        [64, 2, 5, 'profile'],
      ],
    );
    assert.deepEqual(labSchedule([16, 64], 2, false), sweepSchedule([16, 64], 2));
  });
});

describe('labSchedule with survivors runs', () => {
  it('adds one survivors run per value after the profiling runs, in the values\' order', () => {
    const runs = labSchedule([16, 64], 2, true, true);
    assert.deepEqual(runs.slice(4).map((r) => [r.value, r.purpose, r.index, r.round]), [[16, 'profile', 4, 2], [64, 'profile', 5, 2], [16, 'survivors', 6, 2], [64, 'survivors', 7, 2]]);
    assert.deepEqual(labSchedule([16], 1, false, true).map((r) => r.purpose), [undefined, 'survivors']);
  });

  it('keeps survivors runs out of the statistics, like profiling runs', () => {
    assert.equal(runPurpose({ purpose: 'survivors' }), 'survivors');
    assert.equal(runPurpose({}), 'measure');
  });

  it('says a setting\'s survivors per request beside what its profiling run allocated', () => {
    const runs = [
      { purpose: 'measure' as const, status: 'ok' as const, allocBytesPerRequest: null },
      { purpose: 'profile' as const, status: 'ok' as const, allocBytesPerRequest: 100 * 1024 },
      { purpose: 'survivors' as const, status: 'ok' as const, allocBytesPerRequest: null, survivorBytesPerRequest: 25 * 1024 },
    ];
    assert.equal(labSurvivorsCell(runs), '25.0 KB (25%)');
    assert.equal(labSurvivorsCell(runs.slice(0, 2)), null);
  });
});
