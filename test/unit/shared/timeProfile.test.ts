/**
 * The time-ordered profile the report page reads, and the views it builds from it, held against the
 * CPU model the rest of V8 Lens uses (itself checked against speedscope's weights): over the whole
 * profile every function's self and total time, the flame tree's total and each tree's sums agree
 * to the µs; time ranges split the time without losing or doubling any.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildCpuModel } from '../../../src/core/cpu/cpuModel';
import { parseCpuProfile } from '../../../src/core/cpu/parseCpuProfile';
import { buildTimeProfile } from '../../../src/core/report/timeProfile';
import { packTimeProfile } from '../../../src/core/report/packTimeProfile';
import { unpackSpans, unpackTimeProfile, unpackTimeProfileHead } from '../../../src/shared/profile/unpackTimeProfile';
import { flameTotals } from '../../../src/shared/flameTotals';
import type { FlameNode } from '../../../src/shared/model/reportModel';
import type { TimeProfile } from '../../../src/shared/model/timeProfile';
import { displayMap, packageOf } from '../../../src/shared/profile/collapse';
import { firstEndingAfter, flameChartRects } from '../../../src/shared/profile/flameChartRects';
import { functionTimes } from '../../../src/shared/profile/functionTimes';
import { ProfileIndex } from '../../../src/shared/profile/profileIndex';
import { bottomUpTree, calleesTree, callersTree, drawnTreeCode, drawnTreeFromCode, topDownTree } from '../../../src/shared/profile/profileTrees';
import { DRAW_MIN_SHARE, FIRST_PAINT_SHARE, pruneForDrawing } from '../../../src/shared/profile/pruneForDrawing';
import { preOrder } from '../../../src/shared/treeTotals';
import { CPU_FIXTURES, SPEEDSCOPE_DIR, profileText } from '../cpu/cpuTestHelpers';

const FILES = [join(CPU_FIXTURES, 'fib-recursion.cpuprofile'), join(CPU_FIXTURES, 'node20-work.cpuprofile'), join(SPEEDSCOPE_DIR, 'chrome65-sucrase.cpuprofile'), join(SPEEDSCOPE_DIR, 'node10-example.cpuprofile')];

function load(text: string, name = 'p.cpuprofile') {
  const model = buildCpuModel(parseCpuProfile(text, name));
  const tp = buildTimeProfile(model);
  return { model, tp, index: new ProfileIndex(tp) };
}

function total(root: FlameNode | null): number {
  if (!root) return 0;
  return flameTotals(root).totals.get(root)!;
}

/** µs: the page's figures are ms from integer-µs spans; the model's are unrounded. */
const closeMs = (a: number, b: number, what: string, tol = 0.002) => assert.ok(Math.abs(a - b) <= tol + 1e-6 * Math.abs(b), `${what}: ${a} vs ${b}`);

describe('ProfileIndex: the outermost call of each function on its stack', () => {
  for (const file of FILES) {
    const name = file.split('/').pop()!;
    it(`${name}: the one-pass count agrees with a walk up every node's ancestors`, () => {
      const { tp, index } = load(readFileSync(file, 'utf8'), name);
      for (let i = 0; i < index.nodeCount; i++) {
        let outer = 1;
        for (let a = tp.nodeParent[i]!; a >= 0; a = tp.nodeParent[a]!) if (tp.nodeFn[a] === tp.nodeFn[i]) outer = 0;
        assert.equal(index.outermost[i], outer, `node ${i}`);
      }
    });
  }

  it('nodes out of pre-order: the same answer the slow way', () => {
    // 0 → 1 → 3 and 0 → 2, listed 0, 1, 2, 3: 3 comes after its parent's subtree was left.
    const { tp } = load(readFileSync(FILES[0]!, 'utf8'));
    const shuffled = { ...tp, nodeParent: [-1, 0, 0, 1], nodeFn: [0, 1, 2, 1], spanNode: [3], spanDeltaUs: [0] };
    assert.deepEqual([...new ProfileIndex(shuffled).outermost], [1, 1, 1, 0]);
  });
});

describe('time profile: the whole range is the CPU model', () => {
  for (const file of FILES) {
    const name = file.split('/').pop()!;
    it(`${name}: every function's self and total time`, () => {
      const { model, tp, index } = load(readFileSync(file, 'utf8'), name);
      const self = index.selfUs(null);
      // The spans cover the profile from the first sample to the end of the last, like the model.
      closeMs(self.reduce((a, b) => a + b, 0) / 1000, model.coveredUs / 1000, 'spans cover the profile', tp.spanNode.length * 0.001);
      const byKey = new Map(functionTimes(index, self).map((f) => [`${f.name}\u0000${f.url}\u0000${f.line}\u0000${f.column}`, f]));
      for (const f of model.functions.slice(1)) {
        if (f.totalUs <= 0) continue;
        const mine = byKey.get(`${f.name}\u0000${f.url}\u0000${f.line}\u0000${f.column}`);
        assert.ok(mine, `${f.name} is in the table`);
        closeMs(mine.selfMs, f.selfUs / 1000, `${f.name} self`, tp.spanNode.length * 0.001);
        closeMs(mine.totalMs, f.totalUs / 1000, `${f.name} total`, tp.spanNode.length * 0.001);
      }
    });

    it(`${name}: top-down, bottom-up, callers and callees add up`, () => {
      const { index } = load(readFileSync(file, 'utf8'), name);
      const self = index.selfUs(null);
      const whole = self.reduce((a, b) => a + b, 0) / 1000;
      closeMs(total(topDownTree(index, self)), whole, 'top-down');
      // Bottom-up leaves out only the root's own time (V8 never puts a sample on the root).
      closeMs(total(bottomUpTree(index, self)), whole - self[0]! / 1000, 'bottom-up');
      for (const f of functionTimes(index, self).slice(0, 5)) {
        closeMs(total(callersTree(index, self, f.fn)), f.totalMs, `callers of ${f.name}`);
        closeMs(total(calleesTree(index, self, f.fn)), f.totalMs, `callees of ${f.name}`);
      }
      for (const collapse of [{ dependencies: true, nodeInternals: true }]) {
        closeMs(total(topDownTree(index, self, collapse)), whole, 'top-down, folded');
      }
    });

    it(`${name}: the flame chart's top row covers exactly the time something ran, and no row overlaps itself`, () => {
      const { index } = load(readFileSync(file, 'utf8'), name);
      const self = index.selfUs(null);
      const totals = index.totalUs(self);
      let busy = 0;
      for (let i = 1; i < index.nodeCount; i++) {
        if (index.profile.nodeParent[i] !== 0) continue;
        if (index.fn(index.profile.nodeFn[i]!).category !== 'idle') busy += totals[i]!;
      }
      // Every span drawn (no sampling), so the boxes are the profile's exact account.
      const rects = flameChartRects(index, { dependencies: false, nodeInternals: false }, null, Infinity);
      assert.equal(rects.sliceUs, 0);
      const top = rects.levels[0];
      let covered = 0;
      if (top) for (let i = 0; i < top.startUs.length; i++) covered += top.endUs[i]! - top.startUs[i]!;
      closeMs(covered / 1000, busy / 1000, 'top row');
      for (const level of rects.levels) for (let i = 1; i < level.startUs.length; i++) assert.ok(level.startUs[i]! >= level.endUs[i - 1]!, 'boxes of a row in order, apart');
      // Sampled into 64 slices: a picture of the same profile, inside its range, rows still in order.
      const picture = flameChartRects(index, { dependencies: false, nodeInternals: false }, null, 64);
      if (index.profile.spanNode.length > 64) assert.ok(picture.sliceUs > 0 && picture.count <= 64 * (picture.maxDepth + 1));
      for (const level of picture.levels) {
        for (let i = 0; i < level.startUs.length; i++) assert.ok(level.startUs[i]! >= 0 && level.endUs[i]! <= index.profile.durationUs && level.endUs[i]! >= level.startUs[i]!);
        for (let i = 1; i < level.startUs.length; i++) assert.ok(level.startUs[i]! >= level.endUs[i - 1]!);
      }
    });
  }
});

describe('time profile: ranges', () => {
  // main → a (10 µs samples ×3), main → b (×2), main → a (×2): a, then b, then a again.
  const text = profileText({
    nodes: [
      { id: 1, name: '(root)', children: [2] },
      { id: 2, name: 'main', url: 'file:///app/main.js', line0: 0, children: [3, 4] },
      { id: 3, name: 'a', url: 'file:///app/main.js', line0: 4 },
      { id: 4, name: 'b', url: 'file:///app/main.js', line0: 9 },
    ],
    samples: [3, 3, 3, 4, 4, 3, 3],
    timeDeltas: [0, 10, 10, 10, 10, 10, 10],
    endTime: 1_000_070,
  });
  const { tp, index } = load(text);

  it('merges consecutive samples of one stack into a span', () => {
    assert.deepEqual(tp.spanNode.length, 3);
    assert.deepEqual(Array.from(tp.spanDeltaUs), [0, 30, 20]);
    assert.equal(tp.durationUs, 70);
  });

  it('splits time between two ranges without losing any', () => {
    const first = index.selfUs({ fromUs: 0, toUs: 35 });
    const second = index.selfUs({ fromUs: 35, toUs: 70 });
    const rows = (s: Float64Array) => new Map(functionTimes(index, s).map((f) => [f.name, f.selfMs * 1000]));
    assert.deepEqual([...rows(first)], [['a', 30], ['b', 5], ['main', 0]]);
    assert.deepEqual([...rows(second)], [['a', 20], ['b', 15], ['main', 0]]);
  });

  it('draws a, b, a over time under one main box', () => {
    const rects = flameChartRects(index, { dependencies: false, nodeInternals: false });
    const boxes = rects.levels.flatMap((level, depth) => [...level.node].map((n, i) => [index.fn(index.profile.nodeFn[n]!).name, depth, level.startUs[i], level.endUs[i]]));
    assert.deepEqual(boxes, [
      ['main', 0, 0, 70],
      ['a', 1, 0, 30],
      ['b', 1, 30, 50],
      ['a', 1, 50, 70],
    ]);
    assert.equal(rects.count, 4);
    assert.equal(firstEndingAfter(rects.levels[1]!, 30), 1);
  });
});

describe('folding node_modules and Node internals', () => {
  it('names the package of a file', () => {
    assert.equal(packageOf('file:///app/node_modules/express/lib/router/index.js'), 'express');
    assert.equal(packageOf('/app/node_modules/@fastify/ajv-compiler/index.js'), '@fastify/ajv-compiler');
    assert.equal(packageOf('/app/node_modules/a/node_modules/body-parser/index.js'), 'body-parser');
    assert.equal(packageOf('C:\\app\\node_modules\\qs\\lib\\parse.js'), 'qs');
    assert.equal(packageOf('file:///app/server.js'), null);
  });

  it('folds a run of one package into one frame, and keeps your code between them apart', () => {
    const dep = 'file:///app/node_modules/express/lib/';
    const text = profileText({
      nodes: [
        { id: 1, name: '(root)', children: [2] },
        { id: 2, name: 'listOnTimeout', url: 'node:internal/timers', line0: 1, children: [3] },
        { id: 3, name: 'processTimers', url: 'node:internal/timers', line0: 2, children: [4] },
        { id: 4, name: 'handle', url: `${dep}router/layer.js`, line0: 1, children: [5] },
        { id: 5, name: 'next', url: `${dep}router/route.js`, line0: 2, children: [6] },
        { id: 6, name: 'handler', url: 'file:///app/server.js', line0: 3, children: [7] },
        { id: 7, name: 'send', url: `${dep}response.js`, line0: 4 },
      ],
      samples: [6, 7, 7],
      timeDeltas: [0, 10, 10],
      endTime: 1_000_030,
    });
    const { index } = load(text);
    const folded = topDownTree(index, index.selfUs(null), { dependencies: true, nodeInternals: true })!;
    const path: string[] = [];
    for (let n: FlameNode | undefined = folded; n; n = n.children[0]) path.push(n.name);
    assert.deepEqual(path, ['all', 'Node internals', 'express (node_modules)', 'handler', 'express (node_modules)']);
    const map = displayMap(index, { dependencies: true, nodeInternals: false });
    assert.equal(map.folds.length, 1);
  });
});

/** The profile with every typed array as a plain one, to compare with deepEqual. */
function plainArrays(tp: TimeProfile): TimeProfile {
  const out: Record<string, unknown> = { ...tp };
  for (const [key, value] of Object.entries(out)) if (ArrayBuffer.isView(value)) out[key] = Array.from(value as Float64Array);
  return out as unknown as TimeProfile;
}

describe('time profile: packed for an exported report', () => {
  it('comes back exactly as it was, with each node\'s self time, and is smaller than its JSON', () => {
    const { tp, index } = load(readFileSync(join(SPEEDSCOPE_DIR, 'chrome65-sucrase.cpuprofile'), 'utf8'));
    const packed = packTimeProfile(tp);
    assert.deepEqual(packed.spanNode, []);
    // Core builds the spans as typed arrays; the page gets them back as plain ones.
    assert.ok(tp.spanNode instanceof Int32Array && tp.spanDeltaUs instanceof Float64Array);
    const plain = { ...tp, spanNode: Array.from(tp.spanNode), spanDeltaUs: Array.from(tp.spanDeltaUs) };
    // Varints in base64, not deflated (that took a fifth off for 140 ms per 50 MB profile): 0.6 of
    // the JSON here, self times included. The exported page's size is held by npm run bench.
    assert.ok(JSON.stringify(packed).length < (JSON.stringify(plain).length * 2) / 3, `${JSON.stringify(packed).length} vs ${JSON.stringify(plain).length}`);
    const nodeSelfUs = Array.from(index.selfUs(null));
    const drawnTree = drawnTreeCode(index, index.selfUs(null), DRAW_MIN_SHARE);
    // The page gets the nodes, the drawn tree and the spans as typed arrays, the function table plain.
    // (A tree of a few hundred frames is drawn whole at once: no first, coarser one.)
    const unpacked = unpackTimeProfile(packed);
    for (const name of ['nodeFn', 'nodeParent', 'nodeSelfUs', 'drawnTree', 'spanNode', 'spanDeltaUs'] as const) assert.ok(unpacked[name] instanceof Float64Array, name);
    assert.ok(Array.isArray(unpacked.fnName));
    assert.deepEqual(plainArrays(unpacked), { ...plain, nodeSelfUs, drawnTree });
    assert.deepEqual(plainArrays(unpackTimeProfile(packTimeProfile(plain))), { ...plain, nodeSelfUs, drawnTree }, 'plain arrays pack the same');
    assert.equal(unpackTimeProfile(tp), tp);
  });

  it('packs numbers past 32 bits exactly, up to 2^53, and refuses one it cannot', () => {
    const { tp } = load(readFileSync(join(SPEEDSCOPE_DIR, 'chrome65-sucrase.cpuprofile'), 'utf8'));
    // Gaps of a day and longer (µs), each the longest encoding of its size: the packer sizes its
    // buffer for the longest, and a value past 32 bits takes the slower path.
    const wide = [2 ** 32 - 1, 2 ** 32, 2 ** 32 + 5, 2 ** 40 + 3, 2 ** 49 - 1, 2 ** 53 - 1, 0, 127, 128];
    const deltas = Float64Array.from(tp.spanDeltaUs, (v, i) => (i < wide.length ? wide[i]! : v));
    const unpacked = unpackTimeProfile(packTimeProfile({ ...tp, spanDeltaUs: deltas }));
    assert.deepEqual(Array.from(unpacked.spanDeltaUs), Array.from(deltas));
    assert.deepEqual(Array.from(unpacked.spanNode), Array.from(tp.spanNode));
    for (const bad of [-1, 1.5, 2 ** 53]) {
      const spoiled = Float64Array.from(tp.spanDeltaUs);
      spoiled[3] = bad;
      // (The self times, derived from the spans and packed first, may be what it names.)
      assert.throws(() => packTimeProfile({ ...tp, spanDeltaUs: spoiled }), /cannot pack -?[\d.e+]+: not a whole number of 0 or more/, String(bad));
    }
  });

  it('gives the flame graph its figures before the spans: the self times the spans add up to', () => {
    const { tp, index } = load(readFileSync(join(SPEEDSCOPE_DIR, 'chrome65-sucrase.cpuprofile'), 'utf8'));
    const head = unpackTimeProfileHead(packTimeProfile(tp));
    assert.deepEqual(head.spanNode, []);
    assert.ok(head.packed && head.packed.spans.length > 0, 'the spans still to decode');
    const early = new ProfileIndex(head);
    assert.deepEqual(early.selfUs(null), index.selfUs(null));
    assert.deepEqual(topDownTree(early, early.selfUs(null)), topDownTree(index, index.selfUs(null)));
    // The flame graph as first drawn, described by the host: the page's own tree, frame totals included.
    const totals = new Map<FlameNode, number>();
    const drawn = topDownTree(index, index.selfUs(null), undefined, DRAW_MIN_SHARE, totals)!;
    const rebuilt = new Map<FlameNode, number>();
    const fromCode = drawnTreeFromCode(early, early.selfUs(null), head.drawnTree!, rebuilt);
    assert.deepEqual(fromCode, drawn);
    assert.deepEqual(preOrder(fromCode!).map((n) => rebuilt.get(n)), preOrder(drawn).map((n) => totals.get(n)));
    assert.equal(drawnTreeFromCode(early, early.selfUs(null), Array.from(head.drawnTree!).slice(0, -3)), null, 'a cut code is refused');
    // A big drawn tree comes with the first paint's: the page's own tree at FIRST_PAINT_SHARE,
    // frame totals included (here made to, with a threshold of 0 frames).
    const firstHead = unpackTimeProfileHead(packTimeProfile(tp, 0));
    const firstTotals = new Map<FlameNode, number>();
    const first = topDownTree(index, index.selfUs(null), undefined, FIRST_PAINT_SHARE, firstTotals)!;
    const firstRebuilt = new Map<FlameNode, number>();
    assert.ok(firstHead.firstTree!.length * 2 <= firstHead.drawnTree!.length, `${firstHead.firstTree!.length} numbers against ${firstHead.drawnTree!.length}`);
    const firstFromCode = drawnTreeFromCode(early, early.selfUs(null), firstHead.firstTree!, firstRebuilt);
    assert.deepEqual(firstFromCode, first);
    assert.deepEqual(preOrder(firstFromCode!).map((n) => firstRebuilt.get(n)), preOrder(first).map((n) => firstTotals.get(n)));
    const whole = unpackSpans(head);
    assert.deepEqual(Array.from(whole.spanNode), Array.from(tp.spanNode));
    assert.deepEqual(Array.from(whole.spanDeltaUs), Array.from(tp.spanDeltaUs));
    assert.equal(whole.packed, undefined);
  });

  it('describes the first flame graph of every recorded profile exactly, in a fraction of its nodes', () => {
    for (const file of [join(SPEEDSCOPE_DIR, 'chrome65-sucrase.cpuprofile'), join(SPEEDSCOPE_DIR, 'node10-example.cpuprofile'), join(CPU_FIXTURES, 'node20-work.cpuprofile'), join(CPU_FIXTURES, 'fib-recursion.cpuprofile')]) {
      const { index } = load(readFileSync(file, 'utf8'));
      const self = index.selfUs(null);
      const totals = new Map<FlameNode, number>();
      const expected = topDownTree(index, self, undefined, DRAW_MIN_SHARE, totals);
      const code = drawnTreeCode(index, self, DRAW_MIN_SHARE);
      const rebuilt = new Map<FlameNode, number>();
      const tree = drawnTreeFromCode(index, self, code, rebuilt);
      assert.deepEqual(tree, expected, file);
      assert.deepEqual(preOrder(tree!).map((n) => rebuilt.get(n)), preOrder(expected!).map((n) => totals.get(n)), file);
      assert.equal(code.length, 2 * preOrder(expected!).length, 'two numbers a frame');
    }
  });

  it('packs a self time past 2^32 µs (a node idle for hours)', () => {
    const tp: TimeProfile = { strings: ['(idle)', ''], fnName: [0], fnUrl: [1], fnLine: [0], fnColumn: [0], fnCategory: [5], nodeFn: [0], nodeParent: [-1], spanNode: [0], spanDeltaUs: [0], durationUs: 5 * 3600e6, clockMs: null, clockNote: '' };
    assert.deepEqual(Array.from(unpackTimeProfile(packTimeProfile(tp)).nodeSelfUs!), [5 * 3600e6]);
  });

  it('says so in one line when the data is cut or not base64', () => {
    const { tp } = load(readFileSync(join(CPU_FIXTURES, 'node20-work.cpuprofile'), 'utf8'));
    const packed = packTimeProfile(tp);
    for (const data of [packed.packed!.data.slice(0, 40), '%%%']) {
      const cut = { ...packed, packed: { ...packed.packed!, data } };
      assert.throws(() => unpackTimeProfile(cut), (err: Error) => err.message.startsWith('the CPU timeline data') && !err.message.includes('\n'));
    }
    const cutSpans = { ...packed, packed: { ...packed.packed!, spans: packed.packed!.spans.slice(0, 40) } };
    assert.throws(() => unpackSpans(unpackTimeProfileHead(cutSpans)), (err: Error) => !err.message.includes('\n'));
  });
});

describe('the flame graph drawn: frames too narrow to draw merged', () => {
  it('keeps every ms, and merges only what is under the share', () => {
    const { index } = load(readFileSync(join(SPEEDSCOPE_DIR, 'chrome65-sucrase.cpuprofile'), 'utf8'));
    const tree = topDownTree(index, index.selfUs(null))!;
    const { root, merged } = pruneForDrawing(tree, 1 / 200);
    closeMs(total(root), total(tree), 'the whole');
    assert.ok(merged > 0, 'some frames merged');
    const whole = total(tree);
    const { order, totals } = flameTotals(root);
    for (const n of order) {
      if (n.name.startsWith('(') && / smaller frames?\)$/.test(n.name)) assert.equal(n.children.length, 0);
      else assert.ok(totals.get(n)! >= whole / 200 - 1e-9, `${n.name} is wide enough to keep`);
    }
  });

  it('topDownTree hands back each built node\'s inclusive time, the same as a pass over the tree', () => {
    const { index } = load(readFileSync(join(SPEEDSCOPE_DIR, 'chrome65-sucrase.cpuprofile'), 'utf8'));
    const self = index.selfUs(null);
    for (const collapse of [undefined, { dependencies: true, nodeInternals: false }]) {
      for (const share of [0, 1 / 200]) {
        const known = new Map<FlameNode, number>();
        const tree = topDownTree(index, self, collapse, share, known)!;
        const { order, totals } = flameTotals(tree);
        assert.equal(known.size, order.length);
        for (const n of order) closeMs(known.get(n)!, totals.get(n)!, `${n.name} (share ${share})`);
      }
    }
  });

  it('topDownTree with a share merges the same frames while it builds the tree', () => {
    const { index } = load(readFileSync(join(SPEEDSCOPE_DIR, 'chrome65-sucrase.cpuprofile'), 'utf8'));
    const self = index.selfUs(null);
    const shape = (n: FlameNode): unknown => [n.name, Math.round(n.value * 1000), n.children.map(shape)];
    for (const collapse of [undefined, { dependencies: true, nodeInternals: false }]) {
      const pruned = pruneForDrawing(topDownTree(index, self, collapse)!, 1 / 200).root;
      assert.deepEqual(shape(topDownTree(index, self, collapse, 1 / 200)!), shape(pruned));
    }
  });
});
