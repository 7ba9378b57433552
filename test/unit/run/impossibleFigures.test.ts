/** Figures that cannot be are said: more GC pause than wall time. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pauseAboveWallWarnings } from '../../../src/core/run/impossibleFigures';
import type { GcSummary, ProcessSummary } from '../../../src/shared/model/summary';

const gc = (totalPauseMs: number, wallMs: number) => ({ totalPauseMs, wallMs, wallShare: Math.min(1, totalPauseMs / wallMs) }) as GcSummary;

describe('pause above wall time', () => {
  it('163 ms paused in 97.8 ms of a crashed run is said, once for a single process', () => {
    const proc = { pid: 42, gc: gc(163, 97.8) } as ProcessSummary;
    assert.deepEqual(pauseAboveWallWarnings(gc(163, 97.8), [proc]), [
      "GC: 163 ms of pause in 97.8 ms of wall time, which cannot be: the process's clock ended before its GC trace did (a crash or a kill cuts it short), so its GC share is shown as at most 100%",
    ]);
  });

  it('per process in a run of several; nothing for figures that can be', () => {
    const procs = [{ pid: 1, gc: gc(10, 1000) }, { pid: 2, gc: gc(50, 20) }] as ProcessSummary[];
    assert.deepEqual(pauseAboveWallWarnings(gc(60, 1020), procs).map((w) => w.slice(0, 40)), ['GC (pid 2): 50 ms of pause in 20 ms of w']);
    assert.deepEqual(pauseAboveWallWarnings(gc(10, 1000), []), []);
    assert.deepEqual(pauseAboveWallWarnings(null, []), []);
  });
});
