/**
 * A sampling heap profile into pprof samples: one per call-tree node that allocated, with the bytes
 * V8 estimates for it (`selfSize`, its own figure).
 *
 * Objects (`alloc_objects/count`) are not written: V8 scales one sampled allocation of s bytes to
 * c = ⌊1/(1 − e^(−s/interval)) + 0.5⌋ allocations, but the inspector hands over only s × c per
 * sample, and for small objects many (s, c) give the same product (32,784 = 16 × 2049 = 48 × 683):
 * any count would be a guess up to 3× off.
 */
import type { HeapProfile } from '../heap/heapProfileFormat';
import type { PprofBuilder, PprofLabel, PprofValueType } from './pprofBuilder';

/**
 * What the bytes are: V8 Lens's own runs keep the garbage (`alloc_space`, all that was allocated); a
 * heap profile from elsewhere (`--heap-prof`, DevTools) keeps only what was still alive (`inuse_space`).
 */
export type HeapSampleKind = 'alloc' | 'inuse';

export function heapSampleTypes(kind: HeapSampleKind): PprofValueType[] {
  return [{ type: `${kind}_space`, unit: 'bytes' }];
}

export function addHeapSamples(builder: PprofBuilder, profile: HeapProfile, labels: readonly PprofLabel[]): void {
  const locationOf = new Int32Array(profile.nodes.length).fill(-1);
  profile.nodes.forEach((node, i) => {
    if (i === 0 || node.selfBytes === 0) return;
    const stack: number[] = [];
    for (let n = i; n > 0; n = profile.nodes[n]!.parent) {
      if (locationOf[n] === -1) {
        const at = profile.nodes[n]!;
        locationOf[n] = builder.location({ name: at.name, url: at.url, line: at.line, column: at.column });
      }
      stack.push(locationOf[n]!);
    }
    builder.sample(stack, [node.selfBytes], labels);
  });
}
