/**
 * A launched process's output read in batches (launcher/pacedOutput.ts), on real child processes:
 * light output is read a few times a second whatever the number of writes, a fast writer is read at
 * once, nothing is lost or reordered, and a held reader delivers nothing until it is released.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { launchTarget, type TargetProcess } from '../../../src/core/launcher/launchTarget';
import { readPaced, type PacedReader } from '../../../src/core/launcher/pacedOutput';

async function launch(source: string): Promise<TargetProcess> {
  return launchTarget({ command: process.execPath, args: ['-e', source], cwd: process.cwd(), env: process.env, pacedOutput: true });
}

/** Reads the target's stdout with `readPaced` until its end: the bytes, the reader and when it ended. */
function collect(target: TargetProcess, intervalMs: number): { reader: PacedReader; text: () => string; ended: Promise<number> } {
  const chunks: Buffer[] = [];
  let endedAt: (at: number) => void = () => undefined;
  const ended = new Promise<number>((resolve) => (endedAt = resolve));
  const reader = readPaced(target.stdout, intervalMs, (b) => chunks.push(b), () => endedAt(Date.now()));
  target.stderr.resume();
  return { reader, text: () => Buffer.concat(chunks).toString('utf8'), ended };
}

describe('readPaced', () => {
  it('reads 120 separate writes of light output in a few batches, all of them in order', async () => {
    // One write(2) per line, 4 ms apart: as V8 writes its GC lines.
    const target = await launch("const fs = require('fs'); let i = 0; const t = setInterval(() => { fs.writeSync(1, `line ${i}\\n`); if (++i === 120) clearInterval(t); }, 4);");
    const startedAt = Date.now();
    const { reader, text, ended } = collect(target, 100);
    const endedAt = await ended;
    await target.exited;
    assert.equal(text(), Array.from({ length: 120 }, (_, i) => `line ${i}\n`).join(''));
    // At most a drain per 100 ms, each of Node's one waiting chunk and the kernel's batch behind it.
    const allowed = 2 * Math.ceil((endedAt - startedAt) / 100) + 2;
    assert.ok(reader.stats.chunks <= allowed, `${reader.stats.chunks} chunks for 120 writes in ${endedAt - startedAt} ms (at most ${allowed})`);
    assert.ok(reader.stats.chunks < 120);
  });

  it('reads a writer that fills the pipe at once, without waiting a pace per 64 KB', async () => {
    // 16 MB in 64 KB writes, as fast as the pipe takes them: 256 pipe-fulls.
    const target = await launch("const fs = require('fs'); const b = Buffer.alloc(65536, 97); for (let i = 0; i < 256; i++) fs.writeSync(1, b);");
    const { reader, text, ended } = collect(target, 100);
    await ended;
    await target.exited;
    assert.equal(text().length, 256 * 65536);
    assert.ok(/^a+$/.test(text()));
    // Paced, each 64 KB would have waited 100 ms (26 s); eager, the paced drains are the few of its start and end.
    assert.ok(reader.stats.pacedDrains <= 4, `${reader.stats.pacedDrains} paced drains`);
    assert.ok(reader.stats.eagerDrains > 0);
  });

  it('delivers nothing while held, and all of it, then the end, once released', async () => {
    const target = await launch("for (let i = 0; i < 50; i++) require('fs').writeSync(1, `held ${i}\\n`);");
    const chunks: Buffer[] = [];
    let ends = 0;
    const reader = readPaced(target.stdout, 20, (b) => chunks.push(b), () => ends++);
    reader.hold();
    target.stderr.resume();
    // Output has come: a chunk waits in Node's buffer (the rest in the pipe), for five paces.
    while (target.stdout.readableLength === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(chunks.length, 0);
    assert.equal(ends, 0);
    reader.release();
    await target.exited;
    assert.equal(Buffer.concat(chunks).toString('utf8'), Array.from({ length: 50 }, (_, i) => `held ${i}\n`).join(''));
    assert.equal(ends, 1);
  });

  it('reads a line that comes after a quiet spell at once', async () => {
    // Four lines 300 ms apart, then 300 ms before the end: each comes after more than a pace of quiet.
    const target = await launch("let i = 0; const t = setInterval(() => { if (i === 4) return clearInterval(t); require('fs').writeSync(1, `quiet ${i++}\\n`); }, 300);");
    const { reader, text, ended } = collect(target, 100);
    await ended;
    await target.exited;
    assert.equal(text(), 'quiet 0\nquiet 1\nquiet 2\nquiet 3\n');
    assert.equal(reader.stats.pacedDrains, 0);
  });

  it('once the writer has exited, reads its last line and the end at once, not a pace later', async () => {
    // A pace of 10 s: the second line comes 300 ms after the first, within it, and the target exits.
    const target = await launch("require('fs').writeSync(1, 'ready\\n'); setTimeout(() => require('fs').writeSync(1, 'done\\n'), 300);");
    const { reader, text, ended } = collect(target, 10_000);
    void target.processExited.then(() => reader.readAtOnce());
    await ended;
    await target.exited;
    assert.equal(text(), 'ready\ndone\n');
    assert.equal(reader.stats.pacedDrains, 0);
  });

  it('with a pace of 0 reads each chunk as it comes', async () => {
    const target = await launch("const fs = require('fs'); let i = 0; const t = setInterval(() => { fs.writeSync(1, `now ${i}\\n`); if (++i === 20) clearInterval(t); }, 10);");
    const { reader, text, ended } = collect(target, 0);
    await ended;
    await target.exited;
    assert.equal(text(), Array.from({ length: 20 }, (_, i) => `now ${i}\n`).join(''));
    assert.equal(reader.stats.pacedDrains, 0);
  });
});
