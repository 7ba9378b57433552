/**
 * Framework plumbing folded away: with the toggles on, a run of consecutive frames from one
 * node_modules package becomes one frame named after the package, and a run of Node's own frames
 * one "Node internals" frame. A node folded into its parent hands its time to that parent.
 */
import type { FrameCategory } from '../frameCategory';
import type { FunctionInfo, ProfileIndex } from './profileIndex';

export interface CollapseOptions {
  dependencies: boolean;
  nodeInternals: boolean;
}

export const NO_COLLAPSE: CollapseOptions = { dependencies: false, nodeInternals: false };

/** How nodes are shown: each node's shown node (itself, or the ancestor it folds into) and key. */
export interface DisplayMap {
  /** The node each node's time is shown on. */
  shownAs: Int32Array;
  /** Per node: its function (≥ 0), or a fold (−1 − index into `folds`). */
  key: Int32Array;
  folds: FunctionInfo[];
}

export const NODE_INTERNALS_LABEL = 'Node internals';

/** The package of a file under node_modules ("express", "@fastify/ajv-compiler"); null elsewhere. */
export function packageOf(url: string): string | null {
  const at = Math.max(url.lastIndexOf('/node_modules/'), url.lastIndexOf('\\node_modules\\'));
  if (at < 0) return null;
  const parts = url.slice(at + '/node_modules/'.length).split(/[/\\]/);
  const name = parts[0]?.startsWith('@') && parts.length > 1 ? `${parts[0]}/${parts[1]}` : parts[0];
  return name || null;
}

export function displayMap(index: ProfileIndex, options: CollapseOptions): DisplayMap {
  const { nodeFn, nodeParent } = index.profile;
  const folds: FunctionInfo[] = [];
  const foldIds = new Map<string, number>();
  const fnKey = new Int32Array(index.functionCount);
  for (let f = 0; f < fnKey.length; f++) {
    const info = index.fn(f);
    const fold = foldOf(info, options);
    if (fold === null) {
      fnKey[f] = f;
      continue;
    }
    let id = foldIds.get(fold.name);
    if (id === undefined) {
      id = folds.length;
      foldIds.set(fold.name, id);
      folds.push({ name: fold.name, url: '', line: 0, column: 0, category: fold.category });
    }
    fnKey[f] = -1 - id;
  }
  const shownAs = new Int32Array(index.nodeCount);
  const key = new Int32Array(index.nodeCount);
  for (let i = 0; i < index.nodeCount; i++) {
    key[i] = fnKey[nodeFn[i]!]!;
    const parent = nodeParent[i]!;
    // Pre-order: the parent's shown node is known. A fold continues when the parent shows the same fold.
    shownAs[i] = parent >= 0 && key[i]! < 0 && key[shownAs[parent]!] === key[i] ? shownAs[parent]! : i;
  }
  return { shownAs, key, folds };
}

function foldOf(info: FunctionInfo, options: CollapseOptions): { name: string; category: FrameCategory } | null {
  if (options.nodeInternals && info.category === 'node') return { name: NODE_INTERNALS_LABEL, category: 'node' };
  if (options.dependencies && info.category === 'dependency') {
    const pkg = packageOf(info.url);
    if (pkg !== null) return { name: `${pkg} (node_modules)`, category: 'dependency' };
  }
  return null;
}

/** The function or fold a key stands for. */
export function keyInfo(index: ProfileIndex, map: DisplayMap, key: number): FunctionInfo {
  return key >= 0 ? index.fn(key) : map.folds[-1 - key]!;
}
