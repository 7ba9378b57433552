/** The CLI's progress line: drawn in place on a terminal, erased when done, silent elsewhere. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { progressLine } from '../../../src/core/util/progressLine';

function terminal(isTTY: boolean) {
  const written: string[] = [];
  return { isTTY, columns: 100, written, write: (t: string) => void written.push(t) };
}

describe('progressLine', () => {
  it('on a terminal: the text, the percent with a bar and the elapsed time, redrawn in place, erased at the end', () => {
    let clock = 1000;
    const tty = terminal(true);
    const p = progressLine(tty, { delayMs: 0, now: () => clock });
    clock = 3500;
    p.update('run 2/4 · 16 MB · round 1', 0.25);
    p.done();
    assert.deepEqual(tty.written, ['\r\x1b[2Kv8-lens: run 2/4 · 16 MB · round 1 · 25% [#####---------------] · 2.5 s', '\r\x1b[2K']);
  });

  it('quiet for work that ends within the delay, and always quiet when stderr is not a terminal (CI logs, pipes)', () => {
    let clock = 0;
    const tty = terminal(true);
    const quick = progressLine(tty, { delayMs: 500, now: () => clock });
    clock = 200;
    quick.update('reading big.cpuprofile');
    quick.done();
    assert.deepEqual(tty.written, []);
    const pipe = terminal(false);
    const p = progressLine(pipe, { delayMs: 0 });
    p.update('exporting', 0.5);
    p.done();
    assert.deepEqual(pipe.written, []);
  });
});
