import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { OutputPipe } from '../../../src/core/util/outputPipe';

function epipe(): NodeJS.ErrnoException {
  return Object.assign(new Error('write EPIPE'), { code: 'EPIPE', errno: -32, syscall: 'write' });
}

describe('OutputPipe', () => {
  it('a reader that went away (EPIPE) is no error: writes are dropped, the owner is told once', async () => {
    let writes = 0;
    const stream = new Writable({
      write(_chunk, _enc, done) {
        writes++;
        done(epipe());
      },
    });
    const reasons: string[] = [];
    const pipe = new OutputPipe(stream, (why) => reasons.push(why));
    pipe.write('first');
    await new Promise((r) => setImmediate(r));
    assert.equal(pipe.closed, 'EPIPE');
    assert.equal(pipe.write('second'), true, 'nothing to wait for');
    assert.equal(pipe.write(Buffer.from([0xff])), true);
    await pipe.whenDrained();
    assert.deepEqual(reasons, ['EPIPE']);
    assert.equal(writes, 1);
  });

  it('lets a writer waiting for a drain go when the reader goes away', async () => {
    let fail: ((err: Error) => void) | null = null;
    const stream = new Writable({
      highWaterMark: 4,
      write(_chunk, _enc, done) {
        fail = done; // never drains by itself
      },
    });
    const pipe = new OutputPipe(stream);
    assert.equal(pipe.write('more than four bytes'), false, 'full');
    const drained = pipe.whenDrained();
    fail!(epipe());
    await drained;
    assert.equal(pipe.closed, 'EPIPE');
  });

  it('passes writes and drains through while the reader is there', async () => {
    const got: string[] = [];
    const stream = new Writable({
      highWaterMark: 4,
      write(chunk: Buffer, _enc, done) {
        got.push(chunk.toString());
        setTimeout(done, 5);
      },
    });
    const pipe = new OutputPipe(stream);
    assert.equal(pipe.write('hello'), false);
    await pipe.whenDrained();
    assert.equal(pipe.write('x'), true);
    await pipe.whenDrained();
    assert.deepEqual(got, ['hello', 'x']);
    assert.equal(pipe.closed, null);
  });
});
