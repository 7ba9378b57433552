/**
 * Writers under a write error, injected without a mount: /dev/full answers every write with ENOSPC
 * (Linux), so these run on any machine. What a full disk costs: one line naming it, nothing cut
 * short, nothing thrown out of a stream's 'error' event.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RunFileStream } from '../../../src/core/run/runFileStream';
import { appendFileWhole, isBadPathError, writeErrorText, writeFileWhole } from '../../../src/core/util/safeWrite';
import { tempDir } from '../../../scripts/tempDirs';

const FULL = '/dev/full';
const hasDevFull = existsSync(FULL);

describe('a run file written as the run goes (RunFileStream)', () => {
  it('ENOSPC: reported once as one line, later writes dropped, end() still resolves', { skip: !hasDevFull && 'no /dev/full on this system' }, async () => {
    const problems: string[] = [];
    const stream = new RunFileStream(FULL, 'gc-trace.log', (p) => problems.push(p));
    for (let i = 0; i < 50; i++) stream.write(`[123:0x1] ${i} ms: Scavenge 1.0 (2.0) -> 0.5 (2.0) MB, 0.1 / 0.0 ms\n`);
    await stream.end();
    assert.deepEqual(problems, ['gc-trace.log could not be written: no space left on the device (ENOSPC)']);
    assert.equal(stream.problem, problems[0]);
    stream.write('after the failure: dropped, no throw\n');
  });

  it('a healthy file is written whole', async () => {
    const path = join(tempDir('v8-lens-stream-'), 'gc-trace.log');
    const stream = new RunFileStream(path, 'gc-trace.log');
    stream.write('one\n');
    stream.write('two\n');
    await stream.end();
    assert.equal(readFileSync(path, 'utf8'), 'one\ntwo\n');
    assert.equal(stream.problem, null);
  });

  it('lines written as the run goes reach the file within a fifth of a second, gathered, while it stays open', async () => {
    const path = join(tempDir('v8-lens-stream-'), 'gc-trace.log');
    const stream = new RunFileStream(path, 'gc-trace.log');
    for (let i = 0; i < 100; i++) stream.write(`line ${i}\n`);
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(readFileSync(path, 'utf8').split('\n').length, 101);
    // 64 KB at once goes to the file without waiting for the timer.
    stream.write('x'.repeat(70 * 1024));
    await new Promise((r) => setImmediate(r));
    stream.write('last\n');
    await stream.end();
    assert.match(readFileSync(path, 'utf8'), /line 99\nx{71680}last\n$/);
  });
});

describe('exports written whole or not at all', () => {
  it('appending to a file that fails: the error says ENOSPC in words', { skip: !hasDevFull && 'no /dev/full on this system' }, async () => {
    await assert.rejects(appendFileWhole(FULL, '| table |\n'), (err: unknown) => writeErrorText(err) === 'no space left on the device (ENOSPC)' && !isBadPathError(err));
  });

  it('a whole write replaces the old file only once complete, and leaves no temporary file', async () => {
    const dir = tempDir('v8-lens-whole-');
    const path = join(dir, 'report.html');
    writeFileSync(path, 'old');
    await writeFileWhole(path, 'new content');
    assert.equal(readFileSync(path, 'utf8'), 'new content');
    assert.deepEqual(readdirSync(dir), ['report.html']);
    await assert.rejects(writeFileWhole(join(dir, 'no-such-folder', 'x.html'), 'x'), (err: unknown) => isBadPathError(err) && writeErrorText(err) === 'its folder does not exist (ENOENT)');
    assert.deepEqual(readdirSync(dir), ['report.html']);
  });
});
