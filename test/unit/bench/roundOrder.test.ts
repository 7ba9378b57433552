import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { roundOrder } from '../../../bench/measure';

/** Over one block of rounds: how often each arm ran at each position, and right after each other arm. */
function tally(n: number, rounds: number) {
  const arms = Array.from({ length: n }, (_, i) => i);
  const position = arms.map(() => arms.map(() => 0));
  const after = arms.map(() => arms.map(() => 0));
  for (let r = 0; r < rounds; r++) {
    const order = roundOrder(arms, r);
    assert.deepEqual([...order].sort((a, b) => a - b), arms, `round ${r} runs every arm once`);
    order.forEach((arm, p) => position[arm]![p]!++);
    for (let p = 1; p < n; p++) after[order[p]!]![order[p - 1]!]!++;
  }
  return { position, after };
}

describe('the bench runs its arms in a balanced order', () => {
  for (const n of [2, 3, 4, 5, 6]) {
    it(`${n} arms: each in every position and right after every other arm equally often`, () => {
      const block = n % 2 === 0 ? n : 2 * n;
      const { position, after } = tally(n, block * 3);
      for (const row of position) assert.deepEqual(new Set(row).size, 1, JSON.stringify(position));
      for (let a = 0; a < n; a++) {
        const others = after[a]!.filter((_, b) => b !== a);
        assert.equal(new Set(others).size, 1, `arm ${a} follows: ${JSON.stringify(after[a])}`);
        assert.equal(after[a]![a], 0);
      }
    });
  }

  it('a plain rotation would not be: with 3 arms, b always follows a', () => {
    const rotated = (r: number) => [0, 1, 2].map((i) => (i + r) % 3);
    const pairs = new Set(Array.from({ length: 6 }, (_, r) => rotated(r)).flatMap((o) => [`${o[0]}${o[1]}`, `${o[1]}${o[2]}`]));
    assert.deepEqual([...pairs].sort(), ['01', '12', '20']);
    const balanced = new Set(Array.from({ length: 6 }, (_, r) => roundOrder([0, 1, 2], r)).flatMap((o) => [`${o[0]}${o[1]}`, `${o[1]}${o[2]}`]));
    assert.equal(balanced.size, 6);
  });
});
