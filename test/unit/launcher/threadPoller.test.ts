/**
 * Each thread's own CPU, read from /proc from outside (the poller) and from inside the thread (the
 * agent's reading: threadCpu.ts), on this test's own process and a worker thread.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, it } from 'node:test';
import { ThreadPoller } from '../../../src/core/launcher/threadPoller';
import { ownThreadId, readThreadCpu } from '../../../src/core/preload/threadCpu';

const LINUX = process.platform === 'linux';

describe('thread CPU', { skip: LINUX ? false : 'reads /proc (Linux only)' }, () => {
  it("a main thread's kernel id is its pid, and its own CPU grows as it works", () => {
    assert.equal(ownThreadId(), process.pid);
    const before = readThreadCpu()!;
    // A fixed amount of work (not a time: on a shared machine the thread may wait for a core).
    let x = 0;
    for (let i = 0; i < 2e7; i++) x += Math.sqrt(i);
    const after = readThreadCpu()!;
    assert.ok(x > 0 && after.us > before.us, `${before.us} → ${after.us} µs after 2e7 square roots`);
  });

  it("a worker reads its own tid and CPU, and the poller reads the same thread's from outside", async () => {
    const poller = new ThreadPoller(() => [process.pid]);
    // The worker reads itself as threadCpu.ts does (/proc/thread-self), without loading TypeScript.
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       const fs = require('node:fs');
       let x = 0; for (let i = 0; i < 2e7; i++) x += Math.sqrt(i);
       const tid = Number(/\\/task\\/(\\d+)$/.exec(fs.readlinkSync('/proc/thread-self'))[1]);
       const us = Number(fs.readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[0]) / 1000;
       parentPort.postMessage({ tid, cpu: { us } });
       parentPort.once('message', () => process.exit(0));`,
      { eval: true },
    );
    const own = await new Promise<{ tid: number; cpu: { us: number } }>((resolve) => worker.once('message', resolve));
    poller.read();
    const seen = poller.record()!.threads.find((t) => t.tid === own.tid);
    worker.postMessage('done');
    await new Promise((resolve) => worker.once('exit', resolve));
    assert.notEqual(own.tid, process.pid);
    assert.ok(seen, `the poller saw tid ${own.tid}`);
    assert.ok(own.cpu.us > 0, `the worker ran: ${own.cpu.us} µs`);
    // One counter read a moment apart (the worker waits for its message meanwhile): the outside reading is the later one.
    assert.ok(seen.cpuMs >= own.cpu.us / 1000 - 1 && seen.cpuMs - own.cpu.us / 1000 < 50, `${seen.cpuMs} ms vs ${own.cpu.us / 1000} ms`);
  });

  it("keeps a thread's file open between readings and closes it once the thread has ended", async () => {
    const openFiles = () => readdirSync('/proc/self/fd').length;
    const poller = new ThreadPoller(() => [process.pid]);
    const worker = new Worker(`require('node:worker_threads').parentPort.once('message', () => process.exit(0)); require('node:worker_threads').parentPort.postMessage('up');`, { eval: true });
    try {
      await new Promise((resolve) => worker.once('message', resolve));
      const before = openFiles();
      const tids = readdirSync('/proc/self/task').length;
      poller.read();
      poller.read();
      // One file per thread of this process, opened once, not once per reading.
      assert.equal(openFiles() - before, tids, `${openFiles() - before} files open for ${tids} threads`);
      const withWorker = poller.record()!.threads.length;
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage('done');
      await exited;
      const afterExit = openFiles();
      poller.read();
      // The worker's own descriptors went with it; of the poller's, the ended thread's goes now.
      assert.equal(afterExit - openFiles(), 1, "the ended worker's file is closed");
      assert.equal(poller.record()!.threads.length, withWorker, 'what was read of the ended worker is kept');
      poller.stop();
      assert.equal(openFiles(), afterExit - tids, 'stop closes every file');
    } finally {
      poller.stop();
      await worker.terminate();
    }
  });
});
