/**
 * An app that prints far more than its consumer reads must be slowed down, not buffered: V8 Lens's
 * memory stays flat however much the target writes.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ProfileRun } from '../../src/core/capture/profileRun';
import { DEFAULT_ALLOC_SAMPLING_BYTES, PRESETS } from '../../src/core/flags/presets';
import { tempDir } from './cliHarness';

describe('app output', () => {
  it('200 MB written to a slow consumer keeps our memory bounded and arrives complete', async () => {
    const dir = tempDir();
    const script = join(dir, 'firehose.js');
    // 200 MB of app output in 64 KB writes, with GC lines from V8 interleaved.
    writeFileSync(
      script,
      "const line = 'x'.repeat(65535) + '\\n'; let n = 0; let junk = [];\n" +
        // Small garbage per write, so V8 prints GC lines into the same stdout.
        "(function more() { while (n < 3200) { n++; junk = Array.from({ length: 2000 }, (_, i) => ({ i })); if (!process.stdout.write(line)) return process.stdout.once('drain', more); } })();\n",
    );
    let received = 0;
    let peakMemory = 0;
    const run = await ProfileRun.start(
      {
        target: { kind: 'script', script, args: [] },
        cwd: dir,
        node: 'node',
        preset: 'gc',
        options: { capture: PRESETS.gc.capture, samplingIntervalUs: 1000, semiSpaceMB: null, stableDeopts: false, extraFlags: [], allocSamplingBytes: DEFAULT_ALLOC_SAMPLING_BYTES, exactAllocSites: false },
        runDir: join(dir, 'run'),
        timeoutS: null,
      },
      {
        stdout: (text) => {
          received += text.length;
          const { heapUsed, external, arrayBuffers } = process.memoryUsage();
          peakMemory = Math.max(peakMemory, heapUsed + external + arrayBuffers);
          return false; // always "full": every piece waits for a drain
        },
        whenDrained: () => new Promise((r) => setTimeout(r, 1)),
        stderr: () => undefined,
      },
    );
    const result = await run.done;
    assert.equal(result.outcome, 'finished');
    assert.equal(received, 3200 * 65536);
    assert.ok(peakMemory < 150 * 2 ** 20, `peak heap+buffers ${(peakMemory / 2 ** 20).toFixed(0)} MB while 200 MB passed through`);
    assert.ok(result.summary.gc!.eventCount > 0, 'GC lines were interleaved and taken out');
  });
});
