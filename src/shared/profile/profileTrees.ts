/**
 * The call trees the report draws from a TimeProfile, for a time range: top-down (the flame graph),
 * bottom-up (who calls the functions that spend the time), and the two halves of a sandwich (the
 * callers and the callees of one function). Built as tries keyed by function, so frames that fold
 * together or repeat under one parent merge; returned as FlameNode trees, heaviest child first,
 * without the subtrees that spent no time in the range.
 */
import type { FlameNode } from '../model/reportModel';
import { displayMap, keyInfo, NO_COLLAPSE, type CollapseOptions, type DisplayMap } from './collapse';
import type { ProfileIndex } from './profileIndex';
import { pruneForDrawing } from './pruneForDrawing';
import { flameTotals } from '../flameTotals';

interface Trie {
  key: number;
  /** µs ending here: self time (top-down), or time of the stacks whose walk ends here (bottom-up). */
  weightUs: number;
  children: Map<number, Trie>;
}

const ROOT_KEY = Number.MIN_SAFE_INTEGER;

function trie(key: number): Trie {
  return { key, weightUs: 0, children: new Map() };
}

function childOf(parent: Trie, key: number): Trie {
  let child = parent.children.get(key);
  if (!child) parent.children.set(key, (child = trie(key)));
  return child;
}

/**
 * The flame graph's tree: the root is "all", each node's value its self time in ms. With
 * `minShare`, children worth less than that share of the whole are merged as pruneForDrawing does
 * ("(12 smaller frames)"); the unfolded tree never builds them, which on a 90,000-node profile is
 * most of its nodes.
 */
export function topDownTree(index: ProfileIndex, selfUs: Float64Array, collapse: CollapseOptions = NO_COLLAPSE, minShare = 0, totals?: Map<FlameNode, number>): FlameNode | null {
  if (index.nodeCount === 0) return null;
  if (!collapse.dependencies && !collapse.nodeInternals) return callTree(index, selfUs, minShare, totals);
  const map = displayMap(index, collapse);
  const parents = index.profile.nodeParent;
  const root = trie(ROOT_KEY);
  const at: Trie[] = new Array(index.nodeCount);
  at[0] = root;
  for (let i = 1; i < index.nodeCount; i++) {
    const shown = map.shownAs[i]!;
    at[i] = shown !== i ? at[shown]! : childOf(at[parents[i]!]!, map.key[i]!);
  }
  for (let i = 0; i < index.nodeCount; i++) at[i]!.weightUs += selfUs[i]!;
  const tree = toFlame(root, index, map, 'all');
  if (minShare > 0) return pruneForDrawing(tree, minShare, totals).root;
  if (totals) for (const [node, total] of flameTotals(tree).totals) totals.set(node, total);
  return tree;
}

/**
 * The profile's own call tree, node for node (nothing folds), built straight from the node arrays:
 * no tries, and a 70,000-node `tsc` profile takes a third of the time. Subtrees without time in the
 * range are left out; children heaviest first.
 */
/** With `out`: every built node's inclusive time, ms (what the flame graph sizes frames by). */
function callTree(index: ProfileIndex, selfUs: Float64Array, minShare: number, out?: Map<FlameNode, number>): FlameNode {
  const { totals, kids, small } = callTreePlan(index, selfUs, minShare);
  const { nodeFn } = index.profile;
  const infos = new Map<number, ReturnType<ProfileIndex['fn']>>();
  const info = (fn: number) => {
    let i = infos.get(fn);
    if (!i) infos.set(fn, (i = index.fn(fn)));
    return i;
  };
  const built: (FlameNode | undefined)[] = new Array(index.nodeCount);
  const root = rootFrame(selfUs);
  built[0] = root;
  for (let i = 1; i < index.nodeCount; i++) if (kids.kept[i]) built[i] = frameOf(info(nodeFn[i]!), selfUs[i]!);
  for (let i = 0; i < index.nodeCount; i++) {
    const list = kids.of[i];
    if (list) built[i]!.children = list.map((k) => built[k]!);
  }
  for (const [parent, { count, us }] of small) {
    const merged = mergedFrame(built[parent]!, count, us);
    built[parent]!.children.push(merged);
    out?.set(merged, merged.value);
  }
  if (out) for (let i = 0; i < index.nodeCount; i++) if (built[i] !== undefined) out.set(built[i]!, totals[i]! / 1000);
  return root;
}

/**
 * Which nodes callTree builds (those with time whose parent is built, at least `minShare` of the
 * whole), each one's built children heaviest first, and per parent the children merged for being
 * too small: their count and time, µs.
 */
function callTreePlan(index: ProfileIndex, selfUs: Float64Array, minShare: number): { totals: Float64Array; kids: { kept: Uint8Array; of: (number[] | undefined)[] }; small: Map<number, { count: number; us: number }> } {
  const totals = index.totalUs(selfUs);
  const minUs = totals[0]! * minShare;
  const small = new Map<number, { count: number; us: number }>();
  const { nodeParent } = index.profile;
  const kept = new Uint8Array(index.nodeCount);
  const of: (number[] | undefined)[] = new Array(index.nodeCount);
  if (index.nodeCount > 0) kept[0] = 1;
  for (let i = 1; i < index.nodeCount; i++) {
    if (!(totals[i]! > 0)) continue;
    const parent = nodeParent[i]!;
    if (!kept[parent]) continue;
    if (totals[i]! < minUs) {
      const merged = small.get(parent);
      if (merged) {
        merged.count++;
        merged.us += totals[i]!;
      } else small.set(parent, { count: 1, us: totals[i]! });
      continue;
    }
    kept[i] = 1;
    (of[parent] ??= []).push(i);
  }
  for (const list of of) if (list && list.length > 1) list.sort((a, b) => totals[b]! - totals[a]!);
  return { totals, kids: { kept, of }, small };
}

function rootFrame(selfUs: Float64Array): FlameNode {
  return { name: 'all', value: selfUs[0]! / 1000, children: [], category: 'idle', url: '', line: 0, column: 0 };
}

function frameOf(f: ReturnType<ProfileIndex['fn']>, selfUs: number): FlameNode {
  return { name: f.name, value: selfUs / 1000, children: [], category: f.category, url: f.url, line: f.line, column: f.column };
}

function mergedFrame(parent: FlameNode, count: number, us: number): FlameNode {
  return { name: `(${count} smaller frame${count === 1 ? '' : 's'})`, value: us / 1000, children: [], category: parent.category, url: '', line: 0, column: 0 };
}

/**
 * The flame graph's first tree (the whole profile, nothing folded, frames under `minShare` merged:
 * topDownTree's) as numbers, for a host to send with the packed profile: the page rebuilds it with
 * drawTreeFromCode from a few thousand numbers instead of walking every node.
 */
export function drawnTreeCode(index: ProfileIndex, selfUs: Float64Array, minShare: number): number[] {
  const code: number[] = [];
  if (index.nodeCount === 0) return code;
  const { kids, small } = callTreePlan(index, selfUs, minShare);
  // Pre-order, children in callTree's order (the built ones heaviest first, then the merged one):
  // [2 × node, its children's count] for a built frame, [2 × count + 1, µs] for a merged one.
  const stack = [0];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (entry < 0) {
      const merged = small.get(-entry - 1)!;
      code.push(2 * merged.count + 1, merged.us);
      continue;
    }
    const list = kids.of[entry] ?? [];
    const merged = small.has(entry);
    code.push(2 * entry, list.length + (merged ? 1 : 0));
    // Pushed last-first, so they come off in order; the merged frame (a negative entry) is last.
    if (merged) stack.push(-entry - 1);
    for (let k = list.length - 1; k >= 0; k--) stack.push(list[k]!);
  }
  return code;
}

/**
 * The tree drawnTreeCode describes, the same as topDownTree gives for the same profile and share,
 * with every frame's total into `totals`; null when the code does not fit the profile.
 */
export function drawnTreeFromCode(index: ProfileIndex, selfUs: Float64Array, code: ArrayLike<number>, totals?: Map<FlameNode, number>): FlameNode | null {
  const nodeTotals = index.totalUs(selfUs);
  const { nodeFn } = index.profile;
  const infos = new Map<number, ReturnType<ProfileIndex['fn']>>();
  const stack: Array<{ node: FlameNode; left: number }> = [];
  let root: FlameNode | null = null;
  for (let at = 0; at + 1 < code.length; at += 2) {
    const head = code[at]!;
    const second = code[at + 1]!;
    const parent = stack[stack.length - 1];
    let node: FlameNode;
    let children = 0;
    if (head % 2 === 1) {
      if (!parent) return null;
      node = mergedFrame(parent.node, (head - 1) / 2, second);
      totals?.set(node, node.value);
    } else {
      const i = head / 2;
      if (!(i >= 0 && i < index.nodeCount) || (i === 0) !== (root === null)) return null;
      if (i === 0) node = rootFrame(selfUs);
      else {
        let f = infos.get(nodeFn[i]!);
        if (!f) infos.set(nodeFn[i]!, (f = index.fn(nodeFn[i]!)));
        node = frameOf(f, selfUs[i]!);
      }
      children = second;
      totals?.set(node, nodeTotals[i]! / 1000);
    }
    if (parent) {
      parent.node.children.push(node);
      parent.left--;
    } else if (root === null) root = node;
    else return null;
    if (children > 0) stack.push({ node, left: children });
    while (stack.length > 0 && stack[stack.length - 1]!.left === 0) stack.pop();
  }
  return stack.length === 0 ? root : null;
}

/**
 * Bottom-up: the roots are the functions where the time was spent (their self time), each one's
 * children the callers it was spent under, and so on to the program's entry.
 */
export function bottomUpTree(index: ProfileIndex, selfUs: Float64Array, collapse: CollapseOptions = NO_COLLAPSE): FlameNode | null {
  if (index.nodeCount === 0) return null;
  const map = displayMap(index, collapse);
  const parents = index.profile.nodeParent;
  const root = trie(ROOT_KEY);
  for (let i = 1; i < index.nodeCount; i++) {
    const weight = selfUs[i]!;
    if (weight <= 0) continue;
    let place = root;
    for (let n = map.shownAs[i]!; n > 0; n = map.shownAs[parents[n]!]!) place = childOf(place, map.key[n]!);
    place.weightUs += weight;
  }
  return toFlame(root, index, map, 'all');
}

/** Who called `fn`, and with how much of its total time: the root is the function itself. */
export function callersTree(index: ProfileIndex, selfUs: Float64Array, fn: number): FlameNode | null {
  const map = displayMap(index, NO_COLLAPSE);
  const totals = index.totalUs(selfUs);
  const { nodeFn, nodeParent } = index.profile;
  const root = trie(fn);
  for (let i = 1; i < index.nodeCount; i++) {
    if (nodeFn[i] !== fn || !index.outermost[i] || totals[i]! <= 0) continue;
    let place = root;
    for (let n = nodeParent[i]!; n > 0; n = nodeParent[n]!) place = childOf(place, nodeFn[n]!);
    place.weightUs += totals[i]!;
  }
  return root.children.size === 0 && root.weightUs === 0 ? null : toFlame(root, index, map, null);
}

/** What `fn` called, merged over every call of it: the root is the function, its value its self time. */
export function calleesTree(index: ProfileIndex, selfUs: Float64Array, fn: number): FlameNode | null {
  const map = displayMap(index, NO_COLLAPSE);
  const { nodeFn, nodeParent } = index.profile;
  const root = trie(fn);
  const at: (Trie | undefined)[] = new Array(index.nodeCount);
  let any = false;
  for (let i = 1; i < index.nodeCount; i++) {
    const parent = at[nodeParent[i]!];
    if (nodeFn[i] === fn && index.outermost[i]) at[i] = root;
    else if (parent) at[i] = childOf(parent, nodeFn[i]!);
    else continue;
    at[i]!.weightUs += selfUs[i]!;
    any = true;
  }
  return any ? toFlame(root, index, map, null) : null;
}

/** Tries to FlameNodes, iteratively (stacks are hundreds deep), dropping what has no time. */
function toFlame(root: Trie, index: ProfileIndex, map: DisplayMap, rootName: string | null): FlameNode {
  const order: Trie[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const t = stack.pop()!;
    order.push(t);
    for (const c of t.children.values()) stack.push(c);
  }
  const totals = new Map<Trie, number>();
  for (let i = order.length - 1; i >= 0; i--) {
    const t = order[i]!;
    let sum = t.weightUs;
    for (const c of t.children.values()) sum += totals.get(c)!;
    totals.set(t, sum);
  }
  const nodes = new Map<Trie, FlameNode>();
  for (const t of order) {
    const info = t === root && rootName !== null ? { name: rootName, url: '', line: 0, column: 0, category: 'idle' as const } : keyInfo(index, map, t.key);
    nodes.set(t, { name: info.name, value: t.weightUs / 1000, children: [], category: info.category, url: info.url, line: info.line, column: info.column });
  }
  for (const t of order) {
    const kids = [...t.children.values()].filter((c) => totals.get(c)! > 0).sort((a, b) => totals.get(b)! - totals.get(a)!);
    nodes.get(t)!.children = kids.map((c) => nodes.get(c)!);
  }
  return nodes.get(root)!;
}
