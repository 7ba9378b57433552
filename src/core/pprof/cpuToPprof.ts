/**
 * A CPU profile into pprof samples: one sample per call-tree node that was a sample's leaf, with
 * `samples/count` (how many of V8's samples) and `cpu/nanoseconds` (the time V8 Lens credits them,
 * the same weighting as its report: each sample lasts until the next). The root frame is left out,
 * and so are V8 Lens's own samples (the `(V8 Lens)` node): as in the report, they are not the app's.
 * A thread blocked in Atomics.wait (a waiting frame: shared/frameCategory.ts) was off the CPU: its
 * samples keep their count, labelled `state: waiting`, with no CPU time (`go tool pprof -top` ranked
 * a pool's idle `atomicsWaitLoop` first with 64% of the "CPU").
 */
import type { CpuModel } from '../cpu/cpuModel';
import { isWaitingFrame } from '../../shared/frameCategory';
import type { PprofBuilder, PprofLabel, PprofValueType } from './pprofBuilder';

/** The label of a waiting thread's samples. */
export const WAITING_LABEL: PprofLabel = { key: 'state', str: 'waiting' };

export const CPU_SAMPLE_TYPES: readonly PprofValueType[] = [
  { type: 'samples', unit: 'count' },
  { type: 'cpu', unit: 'nanoseconds' },
];

/** Adds the profile's samples; returns the time of the waiting ones (left out of `cpu`), µs. */
export function addCpuSamples(builder: PprofBuilder, model: CpuModel, labels: readonly PprofLabel[]): number {
  const { profile, nodeSelfUs } = model;
  const counts = new Uint32Array(profile.nodes.length);
  for (const leaf of profile.samples) counts[leaf]!++;
  const locationOf = new Int32Array(profile.nodes.length).fill(-1);
  let waitingUs = 0;
  for (let i = 0; i < profile.nodes.length; i++) {
    if ((counts[i] === 0 && nodeSelfUs[i] === 0) || i === model.v8LensNode) continue;
    const stack: number[] = [];
    for (let n = i; n >= 0 && profile.parents[n] !== -1; n = profile.parents[n]!) {
      if (locationOf[n] === -1) {
        const frame = profile.nodes[n]!.callFrame;
        locationOf[n] = builder.location({ name: frame.functionName, url: frame.url, line: frame.line, column: frame.column });
      }
      stack.push(locationOf[n]!);
    }
    // Samples at the root itself (none in V8's output) have no frame to stand on.
    if (stack.length === 0) continue;
    const frame = profile.nodes[i]!.callFrame;
    if (isWaitingFrame(frame.functionName, frame.url)) {
      waitingUs += nodeSelfUs[i]!;
      builder.sample(stack, [counts[i]!, 0], [...labels, WAITING_LABEL]);
    } else builder.sample(stack, [counts[i]!, nodeSelfUs[i]! * 1000], labels);
  }
  return waitingUs;
}
