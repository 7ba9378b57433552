/**
 * V8 Lens's own code in a target's profile. The preload agent runs on the app's threads (its start-up,
 * its timers, its exit handler, the code-trace probe), so its frames land in the app's CPU profile and
 * heap profile. They are recognised by their script: the preload's path as the run launched it
 * (session.json), in either form V8 writes it (a path, or a file:// URL for CommonJS). Everything
 * below such a frame (the Node internals it called, the JSON.stringify of its record) is V8 Lens's
 * too: one subtree per outermost frame, folded into a single `(V8 Lens)` frame under the root, which
 * every figure leaves out and the text says once.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { normalize } from 'node:path';
import { V8_LENS_FRAME } from '../../shared/frameCategory';
import type { CpuCallFrame, CpuProfile, CpuProfileNode } from './cpuProfileFormat';

export { V8_LENS_FRAME };

/** Whether a script (by the url a profile names it with) is V8 Lens's own. */
export type IsV8LensScript = (url: string) => boolean;

/** V8 Lens's scripts given their paths (the preload as launched); null when none is known. */
export function v8LensScripts(paths: readonly (string | null | undefined)[]): IsV8LensScript | null {
  const known = new Set<string>();
  for (const path of paths) if (path) known.add(comparable(path));
  if (known.size === 0) return null;
  return (url) => url !== '' && known.has(comparable(url));
}

/** A path or a file:// URL as one comparable path (Windows: case-insensitive, either slash). */
function comparable(pathOrUrl: string): string {
  let path = pathOrUrl;
  if (pathOrUrl.startsWith('file://')) {
    try {
      path = fileURLToPath(pathOrUrl);
    } catch {
      return pathOrUrl;
    }
  }
  const normal = normalize(path);
  return process.platform === 'win32' ? normal.toLowerCase() : normal;
}

/** The file:// URL a CPU profile names a CommonJS script by (for callers that match by string). */
export function scriptUrlOf(path: string): string {
  return pathToFileURL(path).href;
}

export interface FoldedProfile {
  profile: CpuProfile;
  /** Index of the `(V8 Lens)` node in `profile.nodes`; -1 when the profile had none of V8 Lens's frames. */
  v8LensNode: number;
}

/**
 * The profile with every subtree under an outermost V8 Lens frame replaced by one `(V8 Lens)` node,
 * a child of the root (so no app frame's total includes it), which their samples now point at. The
 * input is left as it was; a profile with none of V8 Lens's frames is returned as it is.
 */
export function foldV8LensFrames(profile: CpuProfile, isV8Lens: IsV8LensScript | null | undefined): FoldedProfile {
  const count = profile.nodes.length;
  if (!isV8Lens || count === 0) return { profile, v8LensNode: -1 };
  const { parents, nodeFrames, frames } = profile;
  const ours = new Uint8Array(count);
  const ownFrame = frames.map((f) => isV8Lens(f.url));
  let any = false;
  // Pre-order: a parent is decided before its children. The root is never folded.
  for (let i = 1; i < count; i++) {
    const parent = parents[i]!;
    if ((parent >= 0 && ours[parent]) || ownFrame[nodeFrames[i]!]) {
      ours[i] = 1;
      any = true;
    }
  }
  if (!any) return { profile, v8LensNode: -1 };

  const newIndex = new Int32Array(count).fill(-1);
  const nodes: CpuProfileNode[] = [];
  const keptParents: number[] = [];
  const keptFrames: number[] = [];
  let maxId = 0;
  for (let i = 0; i < count; i++) {
    const node = profile.nodes[i]!;
    if (node.id > maxId) maxId = node.id;
    if (ours[i]) continue;
    newIndex[i] = nodes.length;
    nodes.push(node);
    const parent = parents[i]!;
    keptParents.push(parent >= 0 ? newIndex[parent]! : -1);
    keptFrames.push(nodeFrames[i]!);
  }
  // Last in pre-order, as the root's last child: every subtree stays contiguous.
  const frame: CpuCallFrame = { functionName: V8_LENS_FRAME, url: '', scriptId: '0', line: 0, column: 0 };
  const v8LensNode = nodes.length;
  nodes.push({ id: maxId + 1, callFrame: frame, positionTicks: [] });
  keptParents.push(0);
  keptFrames.push(frames.length);
  for (let i = 0; i < count; i++) if (ours[i]) newIndex[i] = v8LensNode;

  // Only the frames still used: V8 Lens's own functions must not be listed, even with no time.
  const frameIndex = new Int32Array(frames.length + 1).fill(-1);
  const keptFrameList: CpuCallFrame[] = [];
  const nodeFrameList = new Int32Array(keptFrames.length);
  keptFrames.forEach((f, k) => {
    if (frameIndex[f] === -1) {
      frameIndex[f] = keptFrameList.length;
      keptFrameList.push(f === frames.length ? frame : frames[f]!);
    }
    nodeFrameList[k] = frameIndex[f]!;
  });

  const samples = new Int32Array(profile.samples.length);
  for (let s = 0; s < samples.length; s++) samples[s] = newIndex[profile.samples[s]!]!;
  return {
    profile: { ...profile, nodes, parents: Int32Array.from(keptParents), frames: keptFrameList, nodeFrames: nodeFrameList, samples },
    v8LensNode,
  };
}
