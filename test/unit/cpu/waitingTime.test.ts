/**
 * A pool worker's time blocked in Atomics.wait is waiting, not work. The profile below has the shape
 * of a real piscina worker's (Node 20-26): `atomicsWaitLoop` with all its self ticks on its
 * `Atomics.wait` line (159) and no frame under it for the builtin, beside the task it ran.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCpuProfile } from '../../../src/core/cpu/parseCpuProfile';
import { summarizeCpu } from '../../../src/core/cpu/cpuSummary';
import { mergeCpuSummaries } from '../../../src/core/cpu/mergeCpuSummaries';
import { frameCategory } from '../../../src/shared/frameCategory';
import { profileText } from './cpuTestHelpers';

const PISCINA = 'file:///app/node_modules/piscina/dist/worker.js';
const TASK = 'file:///app/lib/hash-task.js';

// Samples every 100 µs: 6 waiting, 2 in fnv1a (line 8), 1 in the loop's own line 163 (receiving the message), 1 GC.
const worker = parseCpuProfile(
  profileText({
    nodes: [
      { id: 1, name: '(root)', children: [2, 6] },
      { id: 2, name: '', url: PISCINA, line0: 100, col0: 0, children: [3, 4] },
      { id: 3, name: 'atomicsWaitLoop', url: PISCINA, line0: 125, col0: 24, positionTicks: [{ line: 159, ticks: 6 }, { line: 163, ticks: 1 }] },
      { id: 4, name: 'hashTask', url: TASK, line0: 13, col0: 17, children: [5] },
      { id: 5, name: 'fnv1a', url: TASK, line0: 4, col0: 0, positionTicks: [{ line: 8, ticks: 2 }] },
      { id: 6, name: '(garbage collector)' },
    ],
    samples: [3, 3, 3, 5, 5, 3, 3, 3, 3, 6],
    timeDeltas: [0, 100, 100, 100, 100, 100, 100, 100, 100, 100],
    endTime: 1_000_000 + 1000,
  }),
  'worker.cpuprofile',
);

describe('waiting frames', () => {
  it('are their own category, by name whichever file', () => {
    assert.equal(frameCategory('atomicsWaitLoop', PISCINA, 126), 'waiting');
    assert.equal(frameCategory('atomicsWaitLoop', 'file:///app/node_modules/tinypool/dist/entry/worker.js', 40), 'waiting');
    assert.equal(frameCategory('onMessage', PISCINA, 169), 'dependency');
    assert.equal(frameCategory('(idle)', ''), 'idle');
  });

  const s = summarizeCpu(worker, { profileFile: 'worker.cpuprofile' });

  it('leave the functions and are said apart, with their time', () => {
    assert.deepEqual(s.functions.map((f) => f.name), ['fnv1a', '(garbage collector)', '(anonymous)', 'hashTask']);
    // 7 samples of 100 µs, the 7th ticked on another line of the loop: all its self time is one frame's.
    assert.equal(s.waitingMs, 0.7);
    assert.deepEqual(s.waiting?.map((w) => [w.name, w.selfMs]), [['atomicsWaitLoop', 0.7]]);
  });

  it('take their share of each line out of the line heat, the rest of the file kept', () => {
    assert.deepEqual(s.lines.map((l) => [l.url, l.line, l.selfMs]), [[TASK, 8, 0.2]]);
  });

  it('are not on the CPU: onCpuMs is the sampled time without idle and waiting', () => {
    assert.equal(s.durationMs, 1);
    assert.equal(s.onCpuMs, 0.3);
    // Every function's self time and the waiting time still add up to the sampled time.
    const selves = s.functions.reduce((n, f) => n + f.selfMs, 0);
    assert.ok(Math.abs(selves + s.waitingMs! - s.durationMs) < 1e-9, `${selves} + ${s.waitingMs}`);
  });

  it("merged with a main thread: a worker's function is a share of the worker's on-CPU time", () => {
    const main = parseCpuProfile(
      profileText({
        nodes: [
          { id: 1, name: '(root)', children: [2, 3] },
          { id: 2, name: 'handler', url: 'file:///app/app.js', line0: 20, col0: 0, positionTicks: [{ line: 22, ticks: 4 }] },
          { id: 3, name: '(idle)' },
        ],
        samples: [2, 2, 2, 2, 3, 3],
        timeDeltas: [0, 100, 100, 100, 100, 100],
        endTime: 1_000_000 + 600,
      }),
      'main.cpuprofile',
    );
    const m = summarizeCpu(main, { profileFile: 'main.cpuprofile' });
    const parts = [
      { pid: 1, summary: m },
      { pid: 1, summary: s },
    ];
    const merged = mergeCpuSummaries(parts, parts[0]!, []);
    assert.equal(merged.onCpuMs, 0.7); // main 0.4 + worker 0.3
    assert.equal(merged.waitingMs, 0.7);
    assert.deepEqual(merged.waiting?.map((w) => w.name), ['atomicsWaitLoop']);
    const byName = new Map(merged.functions.map((f) => [f.name, f]));
    assert.equal(byName.get('fnv1a')?.onCpuMs, 0.3, "the worker's");
    assert.equal(byName.get('handler')?.onCpuMs, 0.4, "the main thread's");
    assert.equal(merged.lines.find((l) => l.line === 8)?.onCpuMs, 0.3);
    assert.equal(byName.has('atomicsWaitLoop'), false);
  });
});
