/**
 * Comparing two runs: the call-tree merge by call path (same frames, frames on one side only,
 * recursion, split siblings), ms and share normalisation, the top changes, and the GC/run figures
 * with the sign and verdict of each change. Inputs are real files read through buildCompareModel:
 * generated .cpuprofiles with hand-checkable sample counts, run folders with a session, a GC trace
 * and a preload-agent record, and the repository's recorded fixtures.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  buildCompareModel,
  compareTotals,
  judgeChange,
  mergeFlameTrees,
  metricRow,
  normalizeCompareTree,
  type CompareModel,
  type CompareNode,
  type MetricRow,
} from '../../../src/core/report/compareModel';
import type { FlameNode } from '../../../src/shared/model/reportModel';
import type { LoadSummary } from '../../../src/shared/model/summary';
import type { AgentRecord } from '../../../src/core/preload/agentRecord';
import type { SessionRecord } from '../../../src/shared/model/session';
import { parseFromCompareWebview } from '../../../src/shared/compareProtocol';
import { tempDir } from '../../../scripts/tempDirs';

const REPO = resolve(__dirname, '..', '..', '..');
const CPU_FIXTURES = join(REPO, 'test', 'fixtures', 'cpu');
const GC_FIXTURES = join(REPO, 'test', 'fixtures', 'gc');
const SPEEDSCOPE = join(REPO, 'test', 'fixtures', 'third-party', 'speedscope');

const dir = tempDir('v8-lens-compare-');
after(() => rmSync(dir, { recursive: true, force: true }));

// ------------------------------------------------------------------------------------- helpers

interface Frame {
  name: string;
  /** 1-based, as in the flame tree; 0 = no position. */
  line?: number;
  column?: number;
  url?: string;
}

const APP = 'file:///app/server.js';
const main: Frame = { name: 'main', line: 1, column: 1, url: APP };
const work: Frame = { name: 'work', line: 10, column: 3, url: APP };
const helper: Frame = { name: 'helper', line: 20, column: 3, url: APP };
const fresh: Frame = { name: 'fresh', line: 30, column: 3, url: APP };
const fib: Frame = { name: 'fib', line: 40, column: 13, url: APP };

/**
 * A .cpuprofile where each listed stack (root first, without the root) gets `samples` samples of
 * exactly 1 ms. Stacks sharing a prefix share nodes unless `split` asks for a second sibling with
 * the same call frame (V8 does that, e.g. for code of two script ids).
 */
function writeProfile(name: string, stacks: { stack: Frame[]; samples: number; split?: boolean }[]): string {
  interface N { id: number; callFrame: object; children: number[]; key: string }
  const nodes: N[] = [{ id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, children: [], key: '' }];
  const samples: number[] = [];
  for (const { stack, samples: count, split } of stacks) {
    let parent = nodes[0]!;
    stack.forEach((f, depth) => {
      const key = `${parent.id}/${f.name}:${f.line ?? 0}`;
      let node = split && depth === stack.length - 1 ? undefined : nodes.find((n) => n.key === key);
      if (!node) {
        node = {
          id: nodes.length + 1,
          callFrame: { functionName: f.name, scriptId: '1', url: f.url ?? '', lineNumber: (f.line ?? 0) - 1, columnNumber: (f.column ?? 0) - 1 },
          children: [],
          key,
        };
        nodes.push(node);
        parent.children.push(node.id);
      }
      parent = node;
    });
    for (let i = 0; i < count; i++) samples.push(parent.id);
  }
  const file = join(dir, name);
  writeFileSync(
    file,
    JSON.stringify({
      nodes: nodes.map(({ id, callFrame, children }) => ({ id, callFrame, hitCount: 0, children })),
      startTime: 1_000_000,
      endTime: 1_000_000 + (samples.length + 1) * 1000,
      samples,
      timeDeltas: samples.map(() => 1000),
    }),
  );
  return file;
}

/** The node at the end of a path of names from the root, or undefined. */
function at(root: CompareNode, ...names: string[]): CompareNode | undefined {
  let node: CompareNode | undefined = root;
  for (const name of names) node = node?.children.find((c) => c.name === name);
  return node;
}

function row(model: CompareModel, key: string): MetricRow {
  const found = model.metrics.find((r) => r.key === key);
  assert.ok(found, `metric ${key} is there (have ${model.metrics.map((r) => r.key).join(', ')})`);
  return found;
}

const close = (actual: number, expected: number, what = '', eps = 1e-6) => assert.ok(Math.abs(actual - expected) < eps, `${what} ${actual} ≈ ${expected}`);

// ------------------------------------------------------------------------------------- the merge

describe('buildCompareModel: the merged call tree', () => {
  it('gives frames found in both runs B’s self time as value and B − A as delta', async () => {
    const a = writeProfile('same-a.cpuprofile', [{ stack: [main, work], samples: 100 }, { stack: [main, helper], samples: 50 }]);
    const b = writeProfile('same-b.cpuprofile', [{ stack: [main, work], samples: 160 }, { stack: [main, helper], samples: 50 }]);
    const model = await buildCompareModel(a, b);
    assert.equal(model.normalization, 'ms');
    const flame = model.flame!;
    assert.equal(flame.name, 'all');
    const w = at(flame, 'main', 'work')!;
    assert.equal(w.presence, 'both');
    close(w.baseMs, 100, 'A');
    close(w.otherMs, 160, 'B');
    close(w.value, 160, 'value = B');
    close(w.delta, 60, 'delta = B − A');
    assert.equal(w.url, APP);
    assert.equal(w.line, 10);
    assert.equal(w.column, 3);
    assert.equal(w.category, 'user');
    const h = at(flame, 'main', 'helper')!;
    close(h.delta, 0);
    assert.equal(h.presence, 'both');
    // Heaviest in B first.
    assert.deepEqual(at(flame, 'main')!.children.map((c) => c.name), ['work', 'helper']);
    // The sum of self times is each whole profile.
    const totals = compareTotals(flame);
    close(totals.base.get(flame)!, 150);
    close(totals.other.get(flame)!, 210);
    assert.deepEqual(model.profileMs, { base: 150, other: 210 });
    assert.equal(model.lengthsDiffer, true, '150 vs 210 ms differ by more than 20%');
    // The same profile against itself: nothing changed anywhere.
    const self = await buildCompareModel(a, a);
    for (const node of compareTotals(self.flame!).order) assert.equal(node.delta, 0, node.name);
    assert.deepEqual(self.topChanges.ms, { increases: [], decreases: [] });
    assert.equal(self.lengthsDiffer, false);
  });

  it('keeps frames found in one run only, with 0 on the other side', async () => {
    const a = writeProfile('one-a.cpuprofile', [{ stack: [main, work], samples: 100 }, { stack: [main, helper], samples: 50 }]);
    const b = writeProfile('one-b.cpuprofile', [{ stack: [main, work], samples: 100 }, { stack: [main, fresh], samples: 30 }]);
    const flame = (await buildCompareModel(a, b)).flame!;
    const n = at(flame, 'main', 'fresh')!;
    assert.equal(n.presence, 'other');
    close(n.baseMs, 0);
    close(n.value, 30);
    close(n.delta, 30);
    const gone = at(flame, 'main', 'helper')!;
    assert.equal(gone.presence, 'base');
    close(gone.value, 0, 'no width in B');
    close(gone.delta, -50);
    close(gone.baseMs, 50);
    // Sized by A instead, the frame gone in B has its width back; the delta is still B − A.
    const byA = normalizeCompareTree(flame, 'ms', { base: 150, other: 130 }, 'base');
    close(at(byA, 'main', 'helper')!.value, 50);
    close(at(byA, 'main', 'helper')!.delta, -50);
    close(at(byA, 'main', 'fresh')!.value, 0);
  });

  it('merges by call path: recursion level by level, the same function under two callers apart', async () => {
    const a = writeProfile('rec-a.cpuprofile', [
      { stack: [main, fib, fib, fib], samples: 30 },
      { stack: [main, fib], samples: 10 },
      { stack: [main, work, helper], samples: 5 },
    ]);
    const b = writeProfile('rec-b.cpuprofile', [
      { stack: [main, fib, fib, fib, fib, fib], samples: 50 },
      { stack: [main, fib], samples: 10 },
      { stack: [main, helper], samples: 7 },
    ]);
    const model = await buildCompareModel(a, b);
    const flame = model.flame!;
    // One chain of fib frames, not a merge of all fibs into one node.
    for (let depth = 1; depth <= 5; depth++) {
      const path = Array.from({ length: depth }, () => 'fib');
      const node = at(flame, 'main', ...path);
      assert.ok(node, `fib at depth ${depth}`);
      assert.equal(node.children.filter((c) => c.name === 'fib').length, depth < 5 ? 1 : 0);
      assert.equal(node.presence, depth <= 3 ? 'both' : 'other', `depth ${depth}`);
    }
    close(at(flame, 'main', 'fib')!.delta, 0);
    close(at(flame, 'main', 'fib', 'fib', 'fib')!.delta, -30, 'the old leaf lost its self time');
    close(at(flame, 'main', 'fib', 'fib', 'fib', 'fib', 'fib')!.delta, 50);
    // helper under work (A only) and helper under main (B only) are different call paths.
    assert.equal(at(flame, 'main', 'work', 'helper')!.presence, 'base');
    assert.equal(at(flame, 'main', 'helper')!.presence, 'other');
    // Per function (recursion counted once), fib's self time grew by 20 ms, helper's by 2.
    const fibChange = model.topChanges.ms.increases.find((f) => f.name === 'fib')!;
    close(fibChange.baseSelfMs, 40);
    close(fibChange.otherSelfMs, 60);
    close(fibChange.delta, 20);
    close(fibChange.baseTotalMs, 40, 'total counts a recursive sample once');
    close(fibChange.otherTotalMs, 60);
    assert.equal(model.topChanges.ms.increases.find((f) => f.name === 'helper')!.presence, 'both');
  });

  it('merges siblings that share a call frame within one run', async () => {
    const a = writeProfile('split-a.cpuprofile', [{ stack: [main, work], samples: 10 }, { stack: [main, work], samples: 15, split: true }]);
    const b = writeProfile('split-b.cpuprofile', [{ stack: [main, work], samples: 40 }]);
    const flame = (await buildCompareModel(a, b)).flame!;
    const works = at(flame, 'main')!.children.filter((c) => c.name === 'work');
    assert.equal(works.length, 1);
    close(works[0]!.baseMs, 25);
    close(works[0]!.delta, 15);
  });

  it('mergeFlameTrees on trees in memory, and a missing side', () => {
    const leaf = (name: string, value: number): FlameNode => ({ name, value, children: [], category: 'user', url: APP, line: 1, column: 1 });
    const root = (children: FlameNode[]): FlameNode => ({ name: 'all', value: 0, children, category: 'idle', url: '', line: 0, column: 0 });
    const merged = mergeFlameTrees(root([leaf('x', 2)]), null)!;
    assert.equal(merged.children[0]!.presence, 'base');
    close(merged.children[0]!.delta, -2);
    assert.equal(mergeFlameTrees(null, null), null);
  });
});

// ------------------------------------------------------------------------------ moved functions

describe('buildCompareModel: functions matched by name and file, then nearest line', () => {
  it('a line added above `work`: one frame and one row, moved from line 10 to 11, never new + gone', async () => {
    const a = writeProfile('moved-a.cpuprofile', [{ stack: [main, work], samples: 100 }, { stack: [main, helper], samples: 50 }]);
    const b = writeProfile('moved-b.cpuprofile', [{ stack: [main, { ...work, line: 11 }], samples: 130 }, { stack: [main, { ...helper, line: 21 }], samples: 50 }]);
    const model = await buildCompareModel(a, b);
    const flame = model.flame!;
    assert.deepEqual(at(flame, 'main')!.children.map((c) => [c.name, c.presence]), [['work', 'both'], ['helper', 'both']]);
    const w = at(flame, 'main', 'work')!;
    assert.deepEqual(w.movedFrom, { line: 10, column: 3 });
    assert.deepEqual([w.line, w.column], [11, 3], 'the frame has B’s position (it opens B’s source)');
    close(w.baseMs, 100);
    close(w.delta, 30);
    close(at(flame, 'main', 'helper')!.delta, 0, 'helper only moved: no change, not red');
    assert.equal(at(flame, 'main')!.movedFrom, null, 'main did not move');

    assert.deepEqual(model.topChanges.ms.decreases, []);
    const [row, ...others] = model.topChanges.ms.increases;
    assert.deepEqual(others, [], 'helper’s self time did not change');
    assert.deepEqual([row!.name, row!.presence, row!.line, row!.movedFrom], ['work', 'both', 11, { line: 10, column: 3 }]);
    close(row!.delta, 30);
    close(row!.deltaPct!, 30);
    assert.deepEqual(model.moved, {
      count: 2,
      functions: [
        { name: 'work', url: APP, from: { line: 10, column: 3 }, to: { line: 11, column: 3 } },
        { name: 'helper', url: APP, from: { line: 20, column: 3 }, to: { line: 21, column: 3 } },
      ],
    });
  });

  it('several anonymous callbacks under one caller: paired one to one by nearest line', async () => {
    const anon = (line: number): Frame => ({ name: '', line, column: 20, url: APP });
    // A line added above the three callbacks; the first one got 30 ms faster, the others did not change.
    const a = writeProfile('anon-a.cpuprofile', [{ stack: [main, anon(50)], samples: 40 }, { stack: [main, anon(51)], samples: 30 }, { stack: [main, anon(52)], samples: 20 }]);
    const b = writeProfile('anon-b.cpuprofile', [{ stack: [main, anon(51)], samples: 10 }, { stack: [main, anon(52)], samples: 30 }, { stack: [main, anon(53)], samples: 20 }]);
    const model = await buildCompareModel(a, b);
    const callbacks = at(model.flame!, 'main')!.children.filter((c) => c.name === '(anonymous)');
    assert.deepEqual(
      [...callbacks].sort((x, y) => x.line - y.line).map((c) => [c.movedFrom?.line, c.line, c.presence, c.delta]),
      [[50, 51, 'both', -30], [51, 52, 'both', 0], [52, 53, 'both', 0]],
    );
    assert.deepEqual(model.topChanges.ms.increases, []);
    assert.deepEqual(model.topChanges.ms.decreases.map((f) => [f.name, f.line, f.movedFrom?.line, f.presence, f.delta]), [['(anonymous)', 51, 50, 'both', -30]]);
    assert.equal(model.moved.count, 3);
  });

  it('a deleted function is gone, a renamed one is gone + new, and the one below them moved', async () => {
    // B: work (lines 10–14) deleted, helper renamed to assist at the same place (now line 15), fib 40 → 35.
    const a = writeProfile('edit-a.cpuprofile', [{ stack: [main, work], samples: 60 }, { stack: [main, helper], samples: 50 }, { stack: [main, fib], samples: 40 }]);
    const b = writeProfile('edit-b.cpuprofile', [{ stack: [main, { ...helper, name: 'assist', line: 15 }], samples: 50 }, { stack: [main, { ...fib, line: 35 }], samples: 40 }]);
    const model = await buildCompareModel(a, b);
    const byName = new Map(at(model.flame!, 'main')!.children.map((c) => [c.name, c]));
    assert.deepEqual([...byName.keys()].sort(), ['assist', 'fib', 'helper', 'work']);
    assert.deepEqual([byName.get('work')!.presence, byName.get('helper')!.presence, byName.get('assist')!.presence], ['base', 'base', 'other']);
    assert.deepEqual([byName.get('fib')!.presence, byName.get('fib')!.movedFrom], ['both', { line: 40, column: 13 }]);
    close(byName.get('fib')!.delta, 0);
    const { increases, decreases } = model.topChanges.ms;
    assert.deepEqual(increases.map((f) => [f.name, f.presence, f.delta]), [['assist', 'other', 50]]);
    assert.deepEqual(decreases.map((f) => [f.name, f.presence, f.delta]), [['work', 'base', -60], ['helper', 'base', -50]]);
    assert.deepEqual(model.moved.functions.map((m) => `${m.name} ${m.from.line}→${m.to.line}`), ['fib 40→35']);
  });
});

describe('buildCompareModel: Node’s own functions under the same Node', () => {
  it('are the same only at the same position: another `get` is not a moved one', async () => {
    const internal = (name: string, line: number): Frame => ({ name, line, column: 5, url: 'node:internal/streams/readable' });
    const run = (name: string, getLine: number, samples: number) =>
      writeRun(name, {
        semiSpaceMB: null,
        gcLines: [scavenge(100, 1)],
        peakRssMB: 50,
        wallMs: 1000,
        startedAt: '2025-01-01T14:02:00.000Z',
        profile: writeProfile(`${name}.cpuprofile`, [{ stack: [main, internal('get', getLine)], samples }, { stack: [main, { ...work, line: getLine === 1085 ? 10 : 11 }], samples: 50 }]),
      });
    const model = await buildCompareModel(run('node-a', 1085, 20), run('node-b', 131, 30));
    const gets = at(model.flame!, 'main')!.children.filter((c) => c.name === 'get');
    assert.deepEqual(gets.map((g) => [g.presence, g.line]).sort(), [['base', 1085], ['other', 131]]);
    assert.deepEqual(model.moved.functions.map((m) => m.name), ['work'], 'your code still moves');
  });
});

// ------------------------------------------------------------------------------ normalisation

describe('buildCompareModel: ms or share of each profile', () => {
  // A: 200 ms, work 50 ms (25%). B: 400 ms, work 100 ms (25%): twice the ms, the same share.
  const stacks = (scale: number) => [
    { stack: [main, work], samples: 50 * scale },
    { stack: [main, helper], samples: 150 * scale - (scale === 2 ? 40 : 0) },
    ...(scale === 2 ? [{ stack: [main, fresh], samples: 40 }] : []),
  ];

  it('compares shares when asked: same share → no change, even with twice the ms', async () => {
    const a = writeProfile('share-a.cpuprofile', stacks(1));
    const b = writeProfile('share-b.cpuprofile', stacks(2));
    const ms = await buildCompareModel(a, b);
    close(at(ms.flame!, 'main', 'work')!.delta, 50, 'ms');
    assert.equal(ms.lengthsDiffer, true);
    assert.ok(ms.topChanges.ms.increases.some((f) => f.name === 'work'));

    const share = await buildCompareModel(a, b, { normalization: 'share' });
    assert.equal(share.normalization, 'share');
    const w = at(share.flame!, 'main', 'work')!;
    close(w.value, 25, 'B: 25% of its profile');
    close(w.delta, 0, 'the same share');
    close(w.baseMs, 50, 'ms stay in the node');
    close(w.otherMs, 100);
    const h = at(share.flame!, 'main', 'helper')!;
    close(h.value, 65);
    close(h.delta, -10, '75% → 65%');
    close(at(share.flame!, 'main', 'fresh')!.delta, 10);
    // The share lists: work did not change; fresh rose by 10 pp, helper fell by 10 pp.
    const top = share.topChanges.share;
    assert.equal(top.increases.find((f) => f.name === 'work'), undefined);
    assert.deepEqual(top.increases.map((f) => f.name), ['fresh']);
    close(top.increases[0]!.delta, 10);
    assert.equal(top.increases[0]!.deltaPct, null, 'new in B: no percentage');
    assert.deepEqual(top.decreases.map((f) => f.name), ['helper']);
    close(top.decreases[0]!.deltaPct!, (-10 / 75) * 100, 'percent, rounded to 3 decimals', 1e-3);
    // Both normalisations are in every model, and the tree can be re-normalised in the webview.
    assert.deepEqual(share.topChanges.ms, ms.topChanges.ms);
    const again = normalizeCompareTree(ms.flame!, 'share', ms.profileMs);
    close(at(again, 'main', 'helper')!.delta, -10);
  });
});

// ------------------------------------------------------------------------------------ GC figures

const PID = 4242;

function scavenge(timeMs: number, pauseMs: number): string {
  return `[${PID}:0x5a5a5a]     ${timeMs} ms: Scavenge 8.4 (9.5) -> 4.1 (9.5) MB, ${pauseMs.toFixed(2)} / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; `;
}

function markCompact(timeMs: number, pauseMs: number): string {
  return `[${PID}:0x5a5a5a]     ${timeMs} ms: Mark-Compact 34.3 (52.0) -> 25.3 (62.2) MB, ${pauseMs.toFixed(2)} / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; GC in old space requested`;
}

/** A run folder as `v8-lens profile` leaves it (without summary.json, so it is analysed on load). */
function writeRun(
  name: string,
  o: { semiSpaceMB: number | null; gcLines: string[]; peakRssMB: number; wallMs: number; startedAt: string; profile?: string; load?: LoadSummary },
): string {
  const runDir = join(dir, name);
  mkdirSync(join(runDir, 'agent'), { recursive: true });
  const session: SessionRecord = {
    schemaVersion: 1,
    tool: { name: 'v8-lens', version: '0.1.0' },
    status: 'finished',
    node: { command: 'node', execPath: '/usr/bin/node', version: 'v22.11.0', v8Version: '12.4.254.21-node.21' },
    target: { kind: 'script', program: '/app/server.js', args: [], cwd: '/app' },
    launch: { mode: 'direct', command: 'node', argv: [], env: {}, limitations: [] },
    flags: { preset: 'cpu-gc', capture: { cpu: o.profile !== undefined, gc: true, deopts: false }, samplingIntervalUs: 1000, semiSpaceMB: o.semiSpaceMB, stableDeopts: false, extra: [], timeoutS: null },
    pid: PID,
    startedAt: o.startedAt,
    endedAt: null,
    durationMs: o.wallMs,
    exit: { code: 0, signal: null, requested: null, hardKilled: false },
    stderrTail: [],
    machine: { platform: 'linux', cpus: 4, loadavg: [0, 0, 0], totalMemMB: 8000 },
  };
  const record: AgentRecord = {
    schemaVersion: 1,
    pid: PID,
    ppid: 1,
    argv: ['/usr/bin/node', '/app/server.js'],
    execArgv: [],
    nodeVersion: 'v22.11.0',
    v8Version: '12.4.254.21-node.21',
    processStartMs: 1_700_000_000_000,
    updatedAtMs: 1_700_000_000_000 + o.wallMs,
    final: true,
    exitCode: 0,
    stopSignal: null,
    heapSizeLimitBytes: 4096 * 1024 * 1024,
    newSpaceMaxBytes: (o.semiSpaceMB ?? 16) * 2 * 1024 * 1024,
    maxRssKB: o.peakRssMB * 1024,
    cpuUserUs: 800_000,
    cpuSystemUs: 200_000,
    machine: { cpus: 4, loadavg: [0, 0, 0], totalMemBytes: 8e9, platform: 'linux' },
    cpuProfileFile: null,
    errors: [],
  };
  writeFileSync(join(runDir, 'session.json'), JSON.stringify(session));
  writeFileSync(join(runDir, 'agent', `${PID}.json`), JSON.stringify(record));
  writeFileSync(join(runDir, 'gc-trace.log'), `${o.gcLines.join('\n')}\n`);
  if (o.load) writeFileSync(join(runDir, 'load.json'), JSON.stringify(o.load));
  if (o.profile) {
    mkdirSync(join(runDir, 'cpu'));
    copyFileSync(o.profile, join(runDir, 'cpu', `CPU.20250101.140200.${PID}.0.001.cpuprofile`));
  }
  return runDir;
}

describe('buildCompareModel: GC and run figures side by side', () => {
  // A: 16 MB semi-space, 10 scavenges of 1 ms and a 5 ms Mark-Compact in 1 s, 100 MB RSS.
  // B: 64 MB semi-space, 4 scavenges of 1.5 ms and no Mark-Compact in 1 s, 150 MB RSS.
  const runA = writeRun('run-16mb', {
    semiSpaceMB: 16,
    gcLines: [...Array.from({ length: 10 }, (_, i) => scavenge(50 + i * 50, 1)), markCompact(700, 5)],
    peakRssMB: 100,
    wallMs: 1000,
    startedAt: '2025-01-01T14:02:00.000Z',
    profile: join(CPU_FIXTURES, 'node20-work.cpuprofile'),
  });
  const runB = writeRun('run-64mb', {
    semiSpaceMB: 64,
    gcLines: Array.from({ length: 4 }, (_, i) => scavenge(100 + i * 200, 1.5)),
    peakRssMB: 150,
    wallMs: 1000,
    startedAt: '2025-01-01T14:05:00.000Z',
    profile: join(CPU_FIXTURES, 'node20-work.cpuprofile'),
  });

  it('gives each figure A, B, the change B − A and a verdict by its direction', async () => {
    const model = await buildCompareModel(runA, runB);
    const scav = row(model, 'gc.Scavenge.count');
    assert.deepEqual([scav.base, scav.other, scav.change, scav.changePct, scav.verdict], [10, 4, -6, -60, 'better'], 'fewer scavenges is better');
    const mc = row(model, 'gc.Mark-Compact.count');
    assert.deepEqual([mc.base, mc.other, mc.change, mc.changePct, mc.verdict], [1, 0, -1, -100, 'better']);
    const pause = row(model, 'gcPause');
    close(pause.base!, 15);
    close(pause.other!, 6);
    assert.equal(pause.verdict, 'better');
    const mean = row(model, 'scavengeMean');
    close(mean.base!, 1);
    close(mean.other!, 1.5);
    close(mean.changePct!, 50);
    assert.equal(mean.verdict, 'worse', 'longer scavenges are worse');
    assert.equal(row(model, 'scavengeP95').verdict, 'worse');
    const share = row(model, 'gcShare');
    close(share.base!, 0.015);
    close(share.other!, 0.006);
    close(share.change!, -0.009);
    assert.equal(share.verdict, 'better');
    assert.equal(row(model, 'scavengesPerSecond').other, 4);
    const rss = row(model, 'peakRss');
    assert.deepEqual([rss.base, rss.other, rss.verdict], [100, 150, 'worse'], 'more RSS is worse');
    const semi = row(model, 'semiSpaceRequested');
    assert.deepEqual([semi.base, semi.other, semi.change, semi.verdict], [16, 64, 48, 'info'], 'a setting has no verdict');
    assert.deepEqual([row(model, 'semiSpace').base, row(model, 'semiSpace').other], [16, 64]);
    assert.equal(row(model, 'gcEvents').verdict, 'better');
    assert.equal(row(model, 'duration').verdict, 'info');
    assert.equal(row(model, 'cpuTime').verdict, 'same');
    // The same profile in both runs: the CPU rows did not change.
    assert.equal(row(model, 'busy').verdict, 'same');
    assert.equal(model.flame!.children.length > 0, true);
    assert.deepEqual(model.topChanges.ms, { increases: [], decreases: [] });

    // Metadata of both runs, and a header line that tells them apart.
    assert.equal(model.base.semiSpaceRequestedMB, 16);
    assert.equal(model.other.semiSpaceRequestedMB, 64);
    assert.equal(model.base.nodeVersion, 'v22.11.0');
    assert.match(model.base.flags!, /--max-semi-space-size=16/);
    assert.equal(model.base.startedAt, '2025-01-01T14:02:00.000Z');
    assert.match(model.base.label, /^server\.js 16 MB · \d\d:\d\d$/);
    assert.match(model.other.label, /^server\.js 64 MB · \d\d:\d\d$/);
    assert.match(model.title, /^A: server\.js 16 MB · .* vs B: server\.js 64 MB · /);
    assert.equal(model.gcMissing, null);
  });

  it('turns every sign and verdict round when A and B are swapped', async () => {
    const model = await buildCompareModel(runB, runA);
    const scav = row(model, 'gc.Scavenge.count');
    assert.deepEqual([scav.change, scav.changePct, scav.verdict], [6, 150, 'worse']);
    const mc = row(model, 'gc.Mark-Compact.count');
    assert.deepEqual([mc.change, mc.changePct, mc.verdict], [1, null, 'worse'], 'from 0: no percentage');
    assert.equal(row(model, 'scavengeMean').verdict, 'better');
    assert.equal(row(model, 'peakRss').verdict, 'better');
  });

  it('judges by direction: lower (pauses) and higher (req/s) are better, neutral is only shown', () => {
    assert.equal(judgeChange('lower', 10, 4), 'better');
    assert.equal(judgeChange('lower', 4, 10), 'worse');
    assert.equal(judgeChange('higher', 1000, 1200), 'better', 'more req/s is better');
    assert.equal(judgeChange('higher', 1200, 1000), 'worse');
    assert.equal(judgeChange('lower', 1000, 1005), 'same', 'below 1% is no change');
    assert.equal(judgeChange('lower', 0, 0), 'same');
    assert.equal(judgeChange('neutral', 16, 64), 'info');
    assert.equal(judgeChange('lower', null, 3), 'n/a');
    const r = metricRow('rps', 'Requests per second', 'run', 'per-s', 'higher', 1000, 1250);
    assert.deepEqual([r.change, r.changePct, r.verdict], [250, 25, 'better']);
    const missing = metricRow('x', 'x', 'gc', 'ms', 'lower', null, 2);
    assert.deepEqual([missing.change, missing.changePct, missing.verdict], [null, null, 'n/a']);
  });
});

// ---------------------------------------------------------------------------- runs under load

/** The load.json `v8-lens profile --url` writes: a 10 s window after 1 s of warm-up, 20 connections. */
function loadOf(o: {
  requests: number;
  p50Ms: number;
  p99Ms: number;
  gcPauseMs: number;
  scavenges: number;
  failed?: number;
  warmupSeconds?: number;
  durationSeconds?: number;
  /** The window as the load generator measured it: a few ms off the setting. */
  measuredSeconds?: number;
}): LoadSummary {
  const durationSeconds = o.durationSeconds ?? 10;
  return {
    url: 'http://127.0.0.1:3000/',
    connections: 20,
    rate: null,
    warmupSeconds: o.warmupSeconds ?? 1,
    durationSeconds,
    figures: { requests: o.requests, durationSeconds: o.measuredSeconds ?? durationSeconds, rps: o.requests / durationSeconds, p50Ms: o.p50Ms, p99Ms: o.p99Ms, meanLatencyMs: o.p50Ms, errors: o.failed ?? 0, timeouts: 0, non2xx: 0 },
    failedRequests: o.failed ?? 0,
    error: null,
    gcInWindow: { events: o.scavenges, scavenges: o.scavenges, markCompacts: 0, pauseMs: o.gcPauseMs, wallShare: o.gcPauseMs / (durationSeconds * 1000) },
  };
}

describe('buildCompareModel: two runs under load, per request', () => {
  // The comparison that read "GC events +35% worse": B served 40% more requests, and each request
  // cost less GC (266 vs 369 ms per 1,000 requests).
  const profile = join(CPU_FIXTURES, 'node20-work.cpuprofile');
  const common = { semiSpaceMB: 16, peakRssMB: 100, wallMs: 12_000, startedAt: '2025-01-01T14:02:00.000Z', profile };
  const runA = writeRun('load-a', { ...common, gcLines: Array.from({ length: 100 }, (_, i) => scavenge(100 + i * 100, 1)), load: loadOf({ requests: 10_000, p50Ms: 18, p99Ms: 60, gcPauseMs: 3690, scavenges: 90 }) });
  const runB = writeRun('load-b', { ...common, gcLines: Array.from({ length: 135 }, (_, i) => scavenge(100 + i * 80, 1)), load: loadOf({ requests: 14_000, p50Ms: 13, p99Ms: 41, gcPauseMs: 3724, scavenges: 126, failed: 3, measuredSeconds: 10.012 }) });
  const idle = writeRun('no-load', { ...common, gcLines: [scavenge(100, 1)] });

  it('compares req/s, latency, failed requests, GC and CPU per request from the window’s figures', async () => {
    const model = await buildCompareModel(runA, runB);
    const load = model.load!;
    assert.deepEqual(load.underLoad, { base: true, other: true });
    const rowOf = (key: string) => {
      const found = load.rows.find((r) => r.key === key);
      assert.ok(found, `${key} is there (have ${load.rows.map((r) => r.key).join(', ')})`);
      return found;
    };
    assert.ok(load.rows.every((r) => r.group === 'load'));
    assert.deepEqual([rowOf('load.requests').base, rowOf('load.requests').other, rowOf('load.requests').verdict], [10_000, 14_000, 'info']);
    const rps = rowOf('load.rps');
    assert.deepEqual([rps.base, rps.other, rps.changePct, rps.verdict, rps.unit], [1000, 1400, 40, 'better', 'req/s']);
    assert.deepEqual([rowOf('load.p50').base, rowOf('load.p50').other, rowOf('load.p50').verdict], [18, 13, 'better']);
    assert.deepEqual([rowOf('load.p99').base, rowOf('load.p99').other, rowOf('load.p99').verdict], [60, 41, 'better']);
    const failed = rowOf('load.failed');
    assert.deepEqual([failed.base, failed.other, failed.verdict], [0, 3, 'worse']);
    assert.match(failed.hint!, /B: 3 errors, 0 timeouts, 0 non-2xx/);
    const gcMs = rowOf('load.gcMsPer1k');
    assert.deepEqual([gcMs.base, gcMs.other, gcMs.verdict], [369, 266, 'better'], '3,690 ms / 10,000 and 3,724 ms / 14,000 requests, × 1,000');
    const scav = rowOf('load.scavengesPer1k');
    assert.deepEqual([scav.base, scav.other, scav.verdict], [9, 9, 'same']);
    close(rowOf('load.gcShare').base!, 0.369);
    // The same profile in both runs: B's busy time over 40% more requests. The measured windows
    // differ by 12 ms, as any two do; the settings are the same, so CPU per request is shown.
    const busy = row(model, 'busy');
    const cpu = rowOf('load.cpuMsPerRequest');
    close(cpu.base!, busy.base! / 10_000, 'busy ms / requests', 1e-4);
    close(cpu.other!, busy.other! / 14_000, 'busy ms / requests', 1e-4);
    assert.equal(cpu.verdict, 'better');
    assert.match(load.notes.join(' '), /overstates/);
    assert.match(load.notes.join(' '), /B lost 3 request/);

    // The totals stay, labelled as totals, and never call B worse for doing more work.
    const events = row(model, 'gcEvents');
    assert.deepEqual([events.label, events.base, events.other, events.verdict], ['GC events, total', 100, 135, 'info']);
    assert.equal(events.verdictNote, 'total · judge per request');
    for (const key of ['gc.Scavenge.count', 'gc.Scavenge.totalMs', 'gcPause', 'scavengesPerSecond', 'gcShare', 'busy', 'cpuTime']) {
      assert.equal(row(model, key).verdict, 'info', `${key} is a total`);
      assert.ok(row(model, key).verdictNote, key);
    }
    assert.equal(row(model, 'scavengeMean').verdict, 'same', 'a pause per event is still judged');
    assert.equal(row(model, 'peakRss').verdict, 'same');
  });

  it('turns round with A and B, and leaves CPU per request out when the windows differ', async () => {
    const swapped = await buildCompareModel(runB, runA);
    assert.equal(swapped.load!.rows.find((r) => r.key === 'load.gcMsPer1k')!.verdict, 'worse');
    assert.equal(swapped.load!.rows.find((r) => r.key === 'load.rps')!.verdict, 'worse');

    const longer = writeRun('load-c', { ...common, gcLines: [scavenge(100, 1)], load: loadOf({ requests: 20_000, p50Ms: 18, p99Ms: 60, gcPauseMs: 7000, scavenges: 180, durationSeconds: 20 }) });
    const model = await buildCompareModel(runA, longer);
    const load = model.load!;
    assert.equal(load.rows.find((r) => r.key === 'load.cpuMsPerRequest'), undefined);
    assert.match(load.notes.join(' '), /No CPU per request: the profile covers the whole run/);
    assert.match(load.notes.join(' '), /The loads differ \(A vs B: window 10 vs 20 s\)/);
    assert.equal(load.rows.find((r) => r.key === 'load.gcMsPer1k')!.other, 350);
  });

  it('compares functions per request too: 40% more requests and 40% more self time is no change', async () => {
    // Issue 21: B served 55% more requests, so a function unchanged per request was "+56.8% slower" in ms.
    const a = writeProfile('per-request-a.cpuprofile', [{ stack: [main, work], samples: 200 }, { stack: [main, helper], samples: 100 }]);
    const b = writeProfile('per-request-b.cpuprofile', [{ stack: [main, work], samples: 280 }, { stack: [main, helper], samples: 210 }]);
    const load = { p50Ms: 10, p99Ms: 20, gcPauseMs: 100, scavenges: 10 };
    const ra = writeRun('per-request-a', { ...common, profile: a, gcLines: [scavenge(100, 1)], load: loadOf({ ...load, requests: 10_000 }) });
    const rb = writeRun('per-request-b', { ...common, profile: b, gcLines: [scavenge(100, 1)], load: loadOf({ ...load, requests: 14_000 }) });
    const model = await buildCompareModel(ra, rb);
    assert.equal(model.normalization, 'request', 'per request by default when both ran under load alike');
    assert.deepEqual(model.requests, { base: 10_000, other: 14_000 });
    // In ms both grew: work by 80 ms (+40%).
    const workMs = model.topChanges.ms.increases.find((f) => f.name === 'work')!;
    assert.deepEqual([workMs.delta, workMs.deltaPct], [80, 40]);
    // Per request, work is 20 µs in both (200 ms / 10,000, 280 ms / 14,000): not a change; helper went from 10 to 15 µs.
    const perRequest = model.topChanges.request;
    assert.deepEqual(perRequest.increases.map((f) => [f.name, f.delta, f.deltaPct]), [['helper', 5, 50]]);
    assert.deepEqual(perRequest.decreases.map((f) => f.name), []);
    const w = at(model.flame!, 'main', 'work')!;
    close(w.value, 20, 'B: 20 µs per request', 1e-9);
    close(w.delta, 0, 'the same per request', 1e-9);
    close(w.otherMs, 280, 'ms stay in the node');
    // The webview re-normalises the same tree to ms and back.
    close(at(normalizeCompareTree(model.flame!, 'ms', model.profileMs), 'main', 'work')!.delta, 80);
    close(at(normalizeCompareTree(model.flame!, 'request', model.profileMs, 'other', model.requests!), 'main', 'helper')!.delta, 5, '', 1e-9);
    // Every verdict is one run against one: said as the gate says it.
    assert.match(model.noiseNote!, /^1 vs 1 run: no run-to-run noise estimate/);

    // Different windows: the share of the profile outside them differs, so ms, and no request lists.
    const longer = writeRun('per-request-c', { ...common, profile: b, gcLines: [scavenge(100, 1)], load: loadOf({ ...load, requests: 28_000, durationSeconds: 20 }) });
    const unlike = await buildCompareModel(ra, longer);
    assert.equal(unlike.normalization, 'ms');
    assert.equal(unlike.requests, null);
    assert.deepEqual(unlike.topChanges.request, { increases: [], decreases: [] });
    // Asked for per request where there is none: ms.
    assert.equal((await buildCompareModel(ra, longer, { normalization: 'request' })).normalization, 'ms');
  });

  it('only one run under load: says so, compares nothing per request, and judges no totals', async () => {
    const model = await buildCompareModel(idle, runB);
    const load = model.load!;
    assert.deepEqual(load.underLoad, { base: false, other: true });
    assert.deepEqual(load.rows, []);
    assert.equal(load.notes.length, 1);
    assert.match(load.notes[0]!, /^Only B ran under load \(1,400 req\/s in a 10 s window\); A did not run under load\./);
    assert.equal(row(model, 'gcEvents').verdict, 'info');
    assert.equal(row(model, 'gcEvents').verdictNote, 'not comparable · only B ran under load');
    // Neither under load: no load section, and totals keep their verdict.
    const plain = await buildCompareModel(idle, idle);
    assert.equal(plain.load, null);
    assert.equal(row(plain, 'gcEvents').verdict, 'same');
    assert.equal(row(plain, 'gcEvents').verdictNote, undefined);
  });
});

// ------------------------------------------------------------------------------ recorded fixtures

describe('buildCompareModel on recorded fixtures', () => {
  it('compares two GC traces: figures, no flame graph, and says why', async () => {
    const model = await buildCompareModel(join(GC_FIXTURES, 'node20.txt'), join(GC_FIXTURES, 'node24.txt'));
    assert.equal(model.flame, null);
    assert.match(model.flameMissing!, /A and B have no CPU profile/);
    assert.equal(model.base.kind, 'gc-trace');
    assert.ok(model.base.startedAt, 'a file’s modification time stands in for the start');
    const events = row(model, 'gcEvents');
    assert.ok(events.base! > 0 && events.other! > 0);
    assert.equal(events.change, events.other! - events.base!);
    assert.ok(model.metrics.some((r) => r.key === 'gc.Scavenge.count'));
    assert.deepEqual(model.topChanges.ms, { increases: [], decreases: [] });
  });

  it('compares two different third-party profiles: every node’s delta is B − A, totals add up', async () => {
    const a = join(SPEEDSCOPE, 'chrome65-simple.cpuprofile');
    const b = join(SPEEDSCOPE, 'node10-example.cpuprofile');
    const model = await buildCompareModel(a, b);
    const flame = model.flame!;
    const { order, base, other } = compareTotals(flame);
    for (const node of order) {
      close(node.delta, node.otherMs - node.baseMs, node.name);
      assert.equal(node.value, node.otherMs);
      if (node.presence === 'base') assert.equal(other.get(node), 0, `${node.name} is only in A`);
      if (node.presence === 'other') assert.equal(base.get(node), 0, `${node.name} is only in B`);
    }
    close(base.get(flame)!, model.profileMs.base);
    close(other.get(flame)!, model.profileMs.other);
    assert.equal(model.gcMissing !== null, true, 'profiles have no GC');
  });

  it('compares the sucrase profile with the small one: top lists are sorted and at most 10', async () => {
    const model = await buildCompareModel(join(SPEEDSCOPE, 'chrome65-simple.cpuprofile'), join(SPEEDSCOPE, 'chrome65-sucrase.cpuprofile'));
    const { increases, decreases } = model.topChanges.ms;
    assert.equal(increases.length, 10);
    for (let i = 1; i < increases.length; i++) assert.ok(increases[i - 1]!.delta >= increases[i]!.delta);
    for (let i = 1; i < decreases.length; i++) assert.ok(decreases[i - 1]!.delta <= decreases[i]!.delta);
    assert.ok(increases.every((f) => f.delta > 0) && decreases.every((f) => f.delta < 0));
    assert.ok(!increases.some((f) => f.name === '(idle)'), 'waiting is not a function');
  });
});

// ------------------------------------------------------------------------------------- protocol

describe('parseFromCompareWebview', () => {
  it('accepts the protocol’s messages and refuses anything else', () => {
    assert.deepEqual(parseFromCompareWebview({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(parseFromCompareWebview({ type: 'swap', extra: 1 }), { type: 'swap' });
    assert.deepEqual(parseFromCompareWebview({ type: 'openReport', side: 'other' }), { type: 'openReport', side: 'other' });
    assert.deepEqual(parseFromCompareWebview({ type: 'openSource', side: 'base', url: 'file:///a.js', line: 3 }), { type: 'openSource', side: 'base', url: 'file:///a.js', line: 3, column: 1 });
    assert.equal(parseFromCompareWebview({ type: 'openSource', side: 'c', url: 'file:///a.js', line: 3 }), null);
    assert.equal(parseFromCompareWebview({ type: 'openSource', side: 'base', url: '', line: 3 }), null);
    assert.equal(parseFromCompareWebview({ type: 'openSource', side: 'base', url: 'a.js', line: 0 }), null);
    assert.equal(parseFromCompareWebview({ type: 'openSource', side: 'base', url: 'a.js', line: 1.5 }), null);
    assert.equal(parseFromCompareWebview({ type: 'openReport' }), null);
    assert.equal(parseFromCompareWebview({ type: 'exportHtml' }), null);
    assert.equal(parseFromCompareWebview('ready'), null);
    assert.equal(parseFromCompareWebview(null), null);
  });
});
