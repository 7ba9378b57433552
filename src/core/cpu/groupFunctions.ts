import { positionKey } from './callFrameTable';
import type { CpuProfile } from './cpuProfileFormat';

/** One function: every node with the same name, url, line and column (V8 repeats them per call path). */
export interface CpuFunctionTime {
  /** `functionName`, or `(anonymous)` when V8 wrote ''. */
  name: string;
  url: string;
  /** 1-based; 0 for VM frames. */
  line: number;
  column: number;
  selfUs: number;
  /** Inclusive; a recursive function is counted once per sample. */
  totalUs: number;
}

export interface FunctionGroups {
  /** Times still 0: filled in by the model. */
  functions: CpuFunctionTime[];
  /** Index into `functions` per node. */
  nodeFunction: Int32Array;
  /** Distinct urls, and the index of each function's url among them (for keying lines by number). */
  urls: string[];
  functionUrl: Int32Array;
}

/**
 * Groups nodes by function: the profile's distinct call frames are grouped (frames differ from
 * functions only by script id), then each node takes its frame's function, all by index. The maps are
 * nested (url → name → position) rather than keyed by one concatenated string, which would cost a
 * 100-character string per frame. Keyed on the raw name, so a function really called "(anonymous)"
 * stays apart from '' ones.
 */
export function groupFunctions(profile: Pick<CpuProfile, 'frames' | 'nodeFrames'>): FunctionGroups {
  const { frames, nodeFrames } = profile;
  const functions: CpuFunctionTime[] = [];
  const urls: string[] = [];
  const functionUrls: number[] = [];
  const frameFunction = new Int32Array(frames.length);
  const byUrl = new Map<string, { url: number; byName: Map<string, Map<number | string, number>> }>();
  for (let k = 0; k < frames.length; k++) {
    const { functionName, url, line, column } = frames[k]!;
    let inUrl = byUrl.get(url);
    if (!inUrl) {
      inUrl = { url: urls.length, byName: new Map() };
      byUrl.set(url, inUrl);
      urls.push(url);
    }
    let byPosition = inUrl.byName.get(functionName);
    if (!byPosition) inUrl.byName.set(functionName, (byPosition = new Map()));
    const position = positionKey(line, column);
    let index = byPosition.get(position);
    if (index === undefined) {
      index = functions.length;
      byPosition.set(position, index);
      functions.push({ name: functionName === '' ? '(anonymous)' : functionName, url, line, column, selfUs: 0, totalUs: 0 });
      functionUrls.push(inUrl.url);
    }
    frameFunction[k] = index;
  }
  const nodeFunction = new Int32Array(nodeFrames.length);
  for (let i = 0; i < nodeFrames.length; i++) nodeFunction[i] = frameFunction[nodeFrames[i]!]!;
  return { functions, nodeFunction, urls, functionUrl: Int32Array.from(functionUrls) };
}
