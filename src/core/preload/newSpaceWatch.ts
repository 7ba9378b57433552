/**
 * The largest new space an isolate had: "the semi-space the run really had" (the new space starts
 * small and doubles as it fills). Read cheaply and often enough, without changing what the app's GC
 * sees.
 *
 * With the Scavenger (every Node's default) the semi-space's capacity is the new space's used plus
 * available bytes; `v8.getHeapSpaceStatistics()` read on the agent's tick gives it for a handful of
 * small objects. Its `space_size` is no good here: Node 26 commits the pages lazily (3.1–4.2 MB for
 * two 2 MB semi-spaces), and at a random moment Node 24 and 26 can show pages that a GC is about to
 * give back (5.3–7.5 MB for the same space, never right after a GC). So a size counts only when two
 * readings in a row reach it; the reading at the end counts alone.
 *
 * With Minor Mark-Sweep (`--minor-ms`) the space grows far past its capacity while concurrent
 * marking runs (117 MB seen for a 64 MB space) and settles back at each GC, so it is read right
 * after each GC from `v8.GCProfiler` (Node 18.15+). That profiler keeps a record of every GC with
 * the statistics of every space, and draining it every tick allocated enough to slow an
 * allocation-heavy program by a third and flip V8's pretenuring decisions (the lab's figures moved
 * with it), which is why the Scavenger's path does without it.
 */
import { v8 } from '../util/lazyBuiltins';

/**
 * Returns a reader of the largest new space so far, in bytes (both semi-spaces with the Scavenger):
 * call it on every tick, and with `last` at the end, where one reading counts on its own (a short
 * run's space may have reached its size only since the last tick).
 */
export function watchNewSpace(): (last?: boolean) => number {
  if (minorMarkSweepAsked()) {
    const afterGc = gcProfilerReader();
    if (afterGc) return afterGc;
  }
  let largestSemi = 0;
  let previous = 0;
  return (last = false) => {
    for (const space of v8().getHeapSpaceStatistics()) {
      if (space.space_name === 'new_space') {
        const semi = space.space_used_size + space.space_available_size;
        const held = last ? semi : Math.min(previous, semi);
        if (held > largestSemi) largestSemi = held;
        previous = semi;
        break;
      }
    }
    return 2 * largestSemi;
  };
}

/** `--minor-ms` on the command line or in NODE_OPTIONS, the last of `--minor-ms` / `--no-minor-ms` winning. */
export function minorMarkSweepAsked(execArgv: readonly string[] = process.execArgv, nodeOptions: string | undefined = process.env.NODE_OPTIONS): boolean {
  let on = false;
  const words = [...(nodeOptions ?? '').split(/\s+/), ...execArgv];
  for (const word of words) {
    const flag = word.replace(/_/g, '-');
    if (flag === '--minor-ms') on = true;
    else if (flag === '--no-minor-ms') on = false;
  }
  return on;
}

function gcProfilerReader(): (() => number) | null {
  type Stats = { statistics?: Array<{ afterGC?: { heapSpaceStatistics?: Array<{ spaceName: string; spaceSize: number }> } }> };
  const Profiler = (v8() as unknown as { GCProfiler?: new () => { start(): void; stop(): Stats | undefined } }).GCProfiler;
  if (Profiler === undefined) return null;
  const profiler = new Profiler();
  profiler.start();
  let largest = 0;
  return () => {
    // Records pile up until stop(): read them and start afresh each time.
    const stats = profiler.stop();
    profiler.start();
    for (const gc of stats?.statistics ?? []) {
      const size = gc.afterGC?.heapSpaceStatistics?.find((s) => s.spaceName === 'new_space')?.spaceSize ?? 0;
      if (size > largest) largest = size;
    }
    return largest;
  };
}
