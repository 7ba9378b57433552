/**
 * Allocation sampling that keeps the garbage: V8's sampling heap profiler over an in-process
 * inspector session, with `includeObjectsCollectedByMinorGC/MajorGC`, so objects the GC already
 * freed stay in the profile (the defaults, and `--heap-prof`, keep only what is alive at the end:
 * exactly not the garbage the GC paid for). In-process, it works for every launch (direct, npm
 * scripts, launch configurations) and in worker threads, each isolate its own profile.
 * On the main thread and in workers `session.post` answers synchronously, so the exit handler can
 * stop the sampler and write the file.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { Session } from 'node:inspector';
import { join } from 'node:path';
import { v8 } from '../util/lazyBuiltins';
import { WINDOW_MARK_FILES } from './agentEnv';
import { currentThread } from './currentThread';

/**
 * "Exact allocation sites": with inlining on, V8 gives an inlined function's allocations to the
 * function it was inlined into (measured on Node 20, 22 and 24: the demo's buildOrder showed as 0%,
 * 0% and 18% inlined, 74% with these flags). Off, every site is its own, at a cost in speed.
 */
export const EXACT_ALLOC_SITES_FLAGS = ['--no-turbo-inlining', '--no-maglev-inlining'] as const;

export interface AllocationRecord {
  /** File name in the allocation folder. */
  file: string;
  samplingIntervalBytes: number;
  /** Epoch ms the profile covers: from the start (or the window's opening) to the stop. */
  startMs: number;
  endMs: number;
  /** Whether the profile covers a measured load window only. */
  window: boolean;
  /** Heap in use when sampling stopped. */
  liveAtEndBytes: number;
  /**
   * Times the sampler was stopped. V8 collects all garbage before it hands over a profile (a
   * Mark-Compact whose reason is "sampling profiler"): that many such GCs are V8 Lens's, not the app's.
   */
  samplerStops?: number;
  /**
   * 'survivors': samples of objects a young GC freed were dropped (includeObjectsCollectedByMinorGC
   * false), so the profile holds what outlived a young GC, plus what was allocated after the last
   * one. Absent: every allocation, garbage included.
   */
  mode?: 'survivors';
}

export interface AllocationSampler {
  /** Looks for the window marks (called on the agent's sampling tick); true when the window opened or closed just now. */
  poll(): boolean;
  /** Stops sampling and writes the profile (at exit; again is a no-op). */
  finish(): AllocationRecord | null;
}

/**
 * Starts sampling now, or, with `fromWindow`, when the measured window opens (a profile under load):
 * then nothing of the sampler is in the app's heap before the window, and no sampler stop falls
 * inside it. Stopping the sampler makes V8 collect all garbage first ("sampling profiler; GC in old
 * space requested": the inspector asks for it), so the window's own stop comes after the window has
 * closed, and a restart at its opening would have put one such Mark-Compact into it.
 */
export function startAllocationSampler(dir: string, intervalBytes: number, agentDir: string, onError: (err: unknown) => void, fromWindow = false, survivors = false): AllocationSampler | null {
  // Survivors: V8 drops a sample when a young GC frees its object, and keeps those a full GC frees
  // (they outlived the young GCs before it). One mode per isolate: V8 runs one sampling profiler.
  const options = { samplingInterval: intervalBytes, includeObjectsCollectedByMinorGC: !survivors, includeObjectsCollectedByMajorGC: true };
  let session: Session | null = null;
  let startMs = Date.now();
  let window = false;
  let closed = false;
  let stops = 0;
  let result: AllocationRecord | null = null;

  const post = (method: string, params?: object): unknown => {
    let answer: unknown = null;
    let failure: unknown = null;
    session!.post(method, params ?? {}, (err, result) => {
      failure = err;
      answer = result;
    });
    if (failure) throw failure;
    return answer;
  };
  const begin = () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const inspector = require('node:inspector') as typeof import('node:inspector');
    session = new inspector.Session();
    session.connect();
    post('HeapProfiler.enable');
    post('HeapProfiler.startSampling', options);
    startMs = Date.now();
  };
  if (!fromWindow) begin();

  const stop = (): AllocationRecord | null => {
    if (result || closed) return result;
    closed = true;
    if (session === null) return null; // the window never opened: nothing was sampled
    try {
      stops++;
      const answer = post('HeapProfiler.stopSampling') as { profile?: unknown } | null;
      const endMs = Date.now();
      const liveAtEndBytes = v8().getHeapStatistics().used_heap_size;
      post('HeapProfiler.disable');
      session.disconnect();
      if (!answer?.profile) return null;
      mkdirSync(dir, { recursive: true });
      const { isMainThread, threadId } = currentThread();
      const file = isMainThread ? `${process.pid}.heapprofile` : `${process.pid}-${threadId}.heapprofile`;
      writeFileSync(join(dir, file), JSON.stringify(answer.profile));
      result = { file, samplingIntervalBytes: intervalBytes, startMs, endMs, window, liveAtEndBytes, samplerStops: stops, ...(survivors ? { mode: 'survivors' as const } : {}) };
    } catch (err) {
      onError(err);
    }
    return result;
  };

  return {
    poll() {
      if (closed) return false;
      try {
        if (!window && existsSync(join(agentDir, WINDOW_MARK_FILES.open))) {
          // The measured window opens: what the warm-up allocated is not counted.
          if (session === null) begin();
          else {
            stops++;
            post('HeapProfiler.stopSampling');
            post('HeapProfiler.startSampling', options);
            startMs = Date.now();
          }
          window = true;
          return true;
        }
        if (window && existsSync(join(agentDir, WINDOW_MARK_FILES.close))) {
          stop();
          return true;
        }
      } catch (err) {
        onError(err);
      }
      return false;
    },
    finish: stop,
  };
}
