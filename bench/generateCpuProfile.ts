/**
 * Builds a large, realistic `.cpuprofile` for the benchmark: tens of thousands of nodes with real-looking
 * names and urls, call stacks a few hundred frames deep (with recursion), millions of samples with
 * jittered and occasionally negative deltas, and `positionTicks` on sampled nodes. Same seed, same text.
 *
 * The shape follows what V8 writes (the .cpuprofile layout Node 20-24 write): nodes in depth-first order
 * with ids in creation order (so not sorted, and here not dense either), 0-based callFrame positions,
 * 1-based positionTicks lines, `(root)`/`(program)`/`(garbage collector)`/`(idle)` with lineNumber -1.
 */

/** Share of the target size spent on `nodes`; the rest goes to `samples` + `timeDeltas`. */
const NODE_SHARE = 0.45;
/** Rough serialized size of one node, used to pick the node count before serializing. */
const BYTES_PER_NODE_GUESS = 250;
const MAX_DEPTH = 400;
const SAMPLE_INTERVAL_US = 125;

interface Fn {
  name: string;
  url: string;
  scriptId: string;
  line0: number;
  col0: number;
  /** Package or module the function belongs to: callees are mostly picked from the same one. */
  group: number;
}

interface GenNode {
  id: number;
  fn: number;
  parent: number;
  depth: number;
  children: number[];
  hits: number;
  heat: number;
}

export function generateCpuProfile(targetBytes: number, seed = 1): string {
  const rand = mulberry32(seed);
  const fns = makeFunctions(rand, Math.max(50, Math.round((targetBytes * NODE_SHARE) / BYTES_PER_NODE_GUESS / 8)));
  const nodes = growTree(rand, fns, Math.max(20, Math.round((targetBytes * NODE_SHARE) / BYTES_PER_NODE_GUESS)));
  const order = preorder(nodes);

  // Serialize without hit data first to learn how much room the samples get.
  const nodesBytesGuess = order.reduce((n, i) => n + nodeJson(nodes[i]!, nodes, fns, []).length + 1, 0) * 1.08;
  const sampleBudget = Math.max(1000, targetBytes - nodesBytesGuess - 200);

  const { samples, deltas } = makeSamples(rand, nodes, sampleBudget);
  const ticks = makePositionTicks(rand, nodes, fns);

  const startTime = 80_000_000_000 + Math.floor(rand() * 1e9);
  let t = startTime;
  for (const d of deltas) t += d;
  const endTime = t + SAMPLE_INTERVAL_US;

  const nodeTexts = order.map((i) => nodeJson(nodes[i]!, nodes, fns, ticks.get(i) ?? []));
  return (
    `{"nodes":[${nodeTexts.join(',')}],"startTime":${startTime},"endTime":${endTime},` +
    `"samples":[${samples.join(',')}],"timeDeltas":[${deltas.join(',')}]}`
  );
}

// ---------------------------------------------------------------------------------------- functions

const PACKAGES = [
  'express', 'lodash', 'typescript', '@babel/core', '@babel/traverse', 'react-dom', 'webpack', 'pg', 'ioredis',
  'fastify', 'zod', 'graphql', 'undici', 'ws', 'mongoose', 'sequelize', 'rxjs', 'prettier', 'eslint', 'acorn',
  'postcss', 'esbuild', 'jsonwebtoken', 'bcryptjs', 'protobufjs', 'yaml', 'semver', 'debug', 'pino', 'winston',
];
const DIRS = ['lib', 'dist', 'src', 'build', 'lib/internal', 'dist/cjs', 'dist/esm'];
const FILES = [
  'index', 'parser', 'router', 'compiler', 'checker', 'emitter', 'visitor', 'utils', 'scanner', 'transform',
  'connection', 'client', 'serializer', 'schema', 'validate', 'stream', 'buffer', 'codec', 'query', 'resolver',
];
const VERBS = [
  'parse', 'read', 'emit', 'handle', 'transform', 'visit', 'check', 'resolve', 'compile', 'serialize', 'decode',
  'encode', 'validate', 'scan', 'write', 'flush', 'dispatch', 'process', 'create', 'update', 'merge', 'walk',
];
const NOUNS = [
  'Request', 'Token', 'Node', 'Expression', 'Statement', 'Buffer', 'Chunk', 'Module', 'Promise', 'Row', 'Query',
  'Identifier', 'Type', 'Symbol', 'Header', 'Frame', 'Message', 'Schema', 'Field', 'Block', 'Children', 'Path',
];
const NODE_INTERNALS: Array<[string, string]> = [
  ['processTicksAndRejections', 'node:internal/process/task_queues'],
  ['runMicrotasks', ''],
  ['listOnTimeout', 'node:internal/timers'],
  ['processTimers', 'node:internal/timers'],
  ['emit', 'node:events'],
  ['addChunk', 'node:internal/streams/readable'],
  ['readableAddChunk', 'node:internal/streams/readable'],
  ['onStreamRead', 'node:internal/stream_base_commons'],
  ['Module._compile', 'node:internal/modules/cjs/loader'],
  ['Module._load', 'node:internal/modules/cjs/loader'],
  ['Module.require', 'node:internal/modules/cjs/loader'],
  ['readFileSync', 'node:fs'],
  ['writeGeneric', 'node:internal/stream_base_commons'],
  ['parserOnIncoming', 'node:_http_server'],
  ['afterWrite', 'node:internal/streams/writable'],
  ['hash', 'node:internal/crypto/hash'],
];

function makeFunctions(rand: () => number, count: number): Fn[] {
  const fns: Fn[] = [];
  // Fixed leaders: the pseudo-frames and node internals every real profile has.
  for (const name of ['(root)', '(program)', '(garbage collector)', '(idle)']) {
    fns.push({ name, url: '', scriptId: '0', line0: -1, col0: -1, group: 0 });
  }
  NODE_INTERNALS.forEach(([name, url], i) => {
    fns.push({ name, url, scriptId: String(10 + i), line0: 20 + i * 37, col0: 10, group: 1 });
  });
  const scripts: Array<{ url: string; scriptId: string; group: number }> = [];
  for (let s = 0; s < Math.max(4, count / 12); s++) {
    const inApp = rand() < 0.25;
    const pkg = pick(rand, PACKAGES);
    const url = inApp
      ? `file:///home/dev/project/src/${pick(rand, FILES)}${s}.js`
      : `file:///home/dev/project/node_modules/${pkg}/${pick(rand, DIRS)}/${pick(rand, FILES)}.js`;
    scripts.push({ url, scriptId: String(100 + s), group: 2 + (inApp ? s % 7 : PACKAGES.indexOf(pkg) + 7) });
  }
  while (fns.length < count) {
    const script = pick(rand, scripts);
    const anonymous = rand() < 0.08;
    const name = anonymous ? '' : `${pick(rand, VERBS)}${pick(rand, NOUNS)}${rand() < 0.3 ? pick(rand, NOUNS) : ''}`;
    fns.push({
      name,
      url: script.url,
      scriptId: script.scriptId,
      line0: Math.floor(rand() * 4000),
      col0: Math.floor(rand() * 60),
      group: script.group,
    });
  }
  return fns;
}

// --------------------------------------------------------------------------------------------- tree

const ROOT_FN = 0;
const PROGRAM_FN = 1;
const GC_FN = 2;
const IDLE_FN = 3;

function growTree(rand: () => number, fns: Fn[], count: number): GenNode[] {
  const nodes: GenNode[] = [];
  const childFns: Array<Set<number>> = [];
  let nextId = 1;
  const add = (fn: number, parent: number): number => {
    const index = nodes.length;
    nodes.push({ id: nextId, fn, parent, depth: parent < 0 ? 0 : nodes[parent]!.depth + 1, children: [], hits: 0, heat: 0 });
    childFns.push(new Set());
    // Ids follow creation order with occasional gaps, as in profiles merged or trimmed by tools.
    nextId += rand() < 0.05 ? 2 + Math.floor(rand() * 3) : 1;
    if (parent >= 0) {
      nodes[parent]!.children.push(index);
      childFns[parent]!.add(fn);
    }
    return index;
  };
  const root = add(ROOT_FN, -1);
  add(PROGRAM_FN, root);
  add(GC_FN, root);
  add(IDLE_FN, root);
  const firstUserFn = 4 + NODE_INTERNALS.length;
  const groups = groupFunctions(fns, firstUserFn);

  let last = add(4, root); // processTicksAndRejections
  while (nodes.length < count) {
    let parent: number;
    const r = rand();
    if (r < 0.6 && nodes[last]!.depth < MAX_DEPTH) parent = last;
    else if (r < 0.62) parent = root;
    else parent = Math.max(4, Math.floor(rand() * nodes.length));
    if (nodes[parent]!.depth >= MAX_DEPTH) continue;

    const parentFn = nodes[parent]!.fn;
    if (rand() < 0.004) {
      // A recursive descent (parser, tree visitor): a deep chain alternating two or three functions.
      const cycle = [pickFn(rand, groups, fns[parentFn]!.group, firstUserFn, fns.length)];
      while (cycle.length < 2 + Math.floor(rand() * 2)) cycle.push(pickFn(rand, groups, fns[cycle[0]!]!.group, firstUserFn, fns.length));
      let at = parent;
      const length = 50 + Math.floor(rand() * 300);
      for (let k = 0; k < length && nodes.length < count && nodes[at]!.depth < MAX_DEPTH; k++) {
        const fn = cycle[k % cycle.length]!;
        if (childFns[at]!.has(fn)) break;
        at = add(fn, at);
      }
      last = at;
      continue;
    }
    let fn: number;
    if (rand() < 0.05 && parentFn >= firstUserFn) fn = parentFn; // direct recursion
    else if (rand() < 0.06) fn = 4 + Math.floor(rand() * NODE_INTERNALS.length);
    else fn = pickFn(rand, groups, fns[parentFn]!.group, firstUserFn, fns.length);
    if (childFns[parent]!.has(fn)) continue; // V8 keeps one child per call frame
    last = add(fn, parent);
  }
  return nodes;
}

function groupFunctions(fns: Fn[], first: number): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (let i = first; i < fns.length; i++) {
    const g = fns[i]!.group;
    let list = groups.get(g);
    if (!list) groups.set(g, (list = []));
    list.push(i);
  }
  return groups;
}

/** Mostly a function from the caller's own package, sometimes any function. */
function pickFn(rand: () => number, groups: Map<number, number[]>, group: number, first: number, count: number): number {
  const same = groups.get(group);
  if (same && rand() < 0.7) return pick(rand, same);
  return first + Math.floor(rand() * (count - first));
}

/** Depth-first order, children in insertion order, without recursion (the tree is hundreds deep). */
function preorder(nodes: GenNode[]): number[] {
  const order: number[] = [];
  const stack = [0];
  while (stack.length > 0) {
    const i = stack.pop()!;
    order.push(i);
    const children = nodes[i]!.children;
    for (let k = children.length - 1; k >= 0; k--) stack.push(children[k]!);
  }
  return order;
}

// ------------------------------------------------------------------------------------------ samples

function makeSamples(rand: () => number, nodes: GenNode[], budgetBytes: number): { samples: number[]; deltas: number[] } {
  // Heavy-tailed heat, mostly on leaves: a few functions dominate, as in real profiles.
  const cumulative = new Float64Array(nodes.length);
  let acc = 0;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i]!;
    if (node.fn !== ROOT_FN && node.fn !== IDLE_FN) {
      const leafBoost = node.children.length === 0 ? 4 : 1;
      node.heat = leafBoost * Math.pow(rand(), 6) * (node.fn === PROGRAM_FN || node.fn === GC_FN ? 3000 : 1);
    }
    acc += node.heat;
    cumulative[i] = acc;
  }
  const idle = nodes.findIndex((n) => n.fn === IDLE_FN);
  const gc = nodes.findIndex((n) => n.fn === GC_FN);

  const samples: number[] = [];
  const deltas: number[] = [];
  let bytes = 0;
  let current = 0;
  while (bytes < budgetBytes) {
    const r = rand();
    if (samples.length === 0 || r > 0.55) {
      if (r > 0.995) current = idle;
      else if (r > 0.97) current = gc;
      else current = lowerBound(cumulative, rand() * acc);
    }
    const node = nodes[current]!;
    node.hits++;
    let delta: number;
    const d = rand();
    if (samples.length === 0) delta = 2000 + Math.floor(rand() * 6000); // start → first sample
    else if (d < 0.0002) delta = -1 - Math.floor(rand() * 8); // V8's occasional out-of-order timestamp
    else if (d < 0.002) delta = 5000 + Math.floor(rand() * 60_000); // a long gap (blocked sampler thread)
    else delta = Math.round(SAMPLE_INTERVAL_US * (0.85 + rand() * 0.5));
    samples.push(node.id);
    deltas.push(delta);
    bytes += digits(node.id) + digits(delta) + 2;
  }
  return { samples, deltas };
}

function makePositionTicks(rand: () => number, nodes: GenNode[], fns: Fn[]): Map<number, Array<[number, number]>> {
  const ticks = new Map<number, Array<[number, number]>>();
  nodes.forEach((node, i) => {
    const fn = fns[node.fn]!;
    if (node.hits === 0 || fn.line0 < 0) return;
    const lineCount = 1 + Math.floor(rand() * 3);
    const list: Array<[number, number]> = [];
    let left = node.hits;
    for (let k = 0; k < lineCount && left > 0; k++) {
      const share = k === lineCount - 1 ? left : Math.max(1, Math.floor(left * rand()));
      // 1-based line inside the function body (its declaration is 0-based line0).
      list.push([fn.line0 + 2 + k * (1 + Math.floor(rand() * 5)), share]);
      left -= share;
    }
    ticks.set(i, list);
  });
  return ticks;
}

// ---------------------------------------------------------------------------------------- serialize

function nodeJson(node: GenNode, nodes: GenNode[], fns: Fn[], ticks: Array<[number, number]>): string {
  const fn = fns[node.fn]!;
  const callFrame =
    `{"functionName":${JSON.stringify(fn.name)},"scriptId":"${fn.scriptId}","url":${JSON.stringify(fn.url)},` +
    `"lineNumber":${fn.line0},"columnNumber":${fn.col0}}`;
  let text = `{"id":${node.id},"callFrame":${callFrame},"hitCount":${node.hits}`;
  if (node.children.length > 0) text += `,"children":[${node.children.map((c) => nodes[c]!.id).join(',')}]`;
  if (ticks.length > 0) text += `,"positionTicks":[${ticks.map(([line, n]) => `{"line":${line},"ticks":${n}}`).join(',')}]`;
  return `${text}}`;
}

// ------------------------------------------------------------------------------------------ helpers

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)]!;
}

function lowerBound(sorted: Float64Array, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function digits(n: number): number {
  return String(n).length;
}
