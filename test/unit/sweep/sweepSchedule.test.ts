/** Interleaved, rotated schedule (gc.md section 9, step 3). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { labSchedule, sweepSchedule } from '../../../src/core/sweep/sweepSchedule';

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
