/** The shapes a `.cpuprofile` comes in: modern and legacy, odd ids, parent links, very deep stacks. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildCpuModel } from '../../../src/core/cpu/cpuModel';
import { parseCpuProfile } from '../../../src/core/cpu/parseCpuProfile';
import { summarizeCpu } from '../../../src/core/cpu/cpuSummary';
import { SPEEDSCOPE_DIR, profileText, rawNode } from './cpuTestHelpers';

describe('modern format', () => {
  it('normalises positions to 1-based (0 = none) and orders nodes depth-first', () => {
    const text = profileText({
      nodes: [
        // Ids neither dense nor sorted, children listed before their parents.
        { id: 40, name: 'leaf', url: 'file:///a.js', line0: 9, col0: 4 },
        { id: 7, name: 'mid', url: 'file:///a.js', line0: 0, col0: 0, children: [40] },
        { id: 1, name: '(root)', children: [7, 3] },
        { id: 3, name: '(garbage collector)' },
      ],
      samples: [40, 3],
      timeDeltas: [1, 1],
    });
    const profile = parseCpuProfile(text, 'odd-ids.cpuprofile');
    assert.deepEqual(
      profile.nodes.map((n) => [n.id, n.callFrame.functionName, n.callFrame.line, n.callFrame.column]),
      [
        [1, '(root)', 0, 0],
        [7, 'mid', 1, 1],
        [40, 'leaf', 10, 5],
        [3, '(garbage collector)', 0, 0],
      ],
    );
    assert.deepEqual([...profile.parents], [-1, 0, 1, 0]);
    assert.deepEqual([...profile.samples], [2, 3]);
    assert.deepEqual(profile.warnings, []);
  });

  it('accepts parent links instead of children (Chrome trace chunks)', () => {
    const nodes = [
      { id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 } },
      { id: 2, parent: 1, callFrame: { functionName: 'f', scriptId: '1', url: 'u.js', lineNumber: 0, columnNumber: 0 } },
      { id: 3, parent: 2, callFrame: { functionName: 'g', scriptId: '1', url: 'u.js', lineNumber: 4, columnNumber: 0 } },
    ];
    const text = JSON.stringify({ nodes, startTime: 0, endTime: 30, samples: [3, 3, 2], timeDeltas: [0, 10, 10] });
    const model = buildCpuModel(parseCpuProfile(text, 'chunks.cpuprofile'));
    assert.deepEqual([...model.profile.parents], [-1, 0, 1]);
    const f = model.functions.find((x) => x.name === 'f')!;
    assert.equal(f.totalUs, 30);
    assert.equal(f.selfUs, 10);
  });

  it('tolerates a UTF-8 byte order mark', () => {
    const text = profileText({ nodes: [{ id: 1, name: '(root)' }], samples: [1], timeDeltas: [1] });
    assert.equal(parseCpuProfile(`\ufeff${text}`, 'bom.cpuprofile').nodes.length, 1);
  });

  it('keeps functions apart by name, url, line and column; only empty names become (anonymous)', () => {
    const text = profileText({
      nodes: [
        { id: 1, name: '(root)', children: [2, 3, 4, 5] },
        { id: 2, name: '', url: 'file:///a.js', line0: 1, col0: 2 },
        { id: 3, name: '', url: 'file:///a.js', line0: 1, col0: 3 },
        { id: 4, name: '', url: 'file:///b.js', line0: 1, col0: 2 },
        { id: 5, name: '(anonymous)', url: 'file:///a.js', line0: 1, col0: 2 },
      ],
      samples: [2, 3, 4, 5],
      timeDeltas: [1, 1, 1, 1],
    });
    const model = buildCpuModel(parseCpuProfile(text, 'keys.cpuprofile'));
    assert.equal(model.functions.filter((f) => f.name === '(anonymous)').length, 4);
  });
});

describe('legacy format (head tree, absolute timestamps, times in seconds)', () => {
  const text = readFileSync(join(SPEEDSCOPE_DIR, 'node10-example.cpuprofile'), 'utf8');
  const profile = parseCpuProfile(text, 'node10-example.cpuprofile');

  it('reads the tree, uses the trailing timestamp as the end, and the sample span as duration', () => {
    const raw = JSON.parse(text) as { timestamps: number[]; samples: number[] };
    assert.equal(profile.format, 'legacy');
    assert.equal(profile.nodes.length, 7);
    assert.equal(profile.samples.length, raw.samples.length);
    assert.equal(profile.startTimeUs, raw.timestamps[0]);
    assert.equal(profile.endTimeUs, raw.timestamps[raw.timestamps.length - 1]);
    assert.deepEqual(profile.warnings, []);
    const summary = summarizeCpu(profile, { profileFile: 'node10-example.cpuprofile' });
    assert.equal(summary.durationMs, (raw.timestamps[raw.timestamps.length - 1]! - raw.timestamps[0]!) / 1000);
  });

  it('gives legacy frames (which have no column) column 1, like speedscope', () => {
    const d = profile.nodes.find((n) => n.callFrame.functionName === 'd')!;
    assert.deepEqual([d.callFrame.line, d.callFrame.column], [14, 1]);
    assert.equal(d.callFrame.scriptId, '0');
  });

  it('without a trailing timestamp, the last sample ends at the last timestamp', () => {
    const raw = JSON.parse(text) as { timestamps: number[] };
    raw.timestamps.pop();
    const p = parseCpuProfile(JSON.stringify(raw), 'no-trailing.cpuprofile');
    assert.equal(p.endTimeUs, raw.timestamps[raw.timestamps.length - 1]);
    assert.equal(buildCpuModel(p).lastSampleWeightUs, 0);
  });
});

describe('20,000-deep stacks (no recursion anywhere)', () => {
  const DEPTH = 20_000;

  it('modern: a chain of distinct functions, sampled at the leaf and in the middle', () => {
    const nodes = [rawNode({ id: 1, name: '(root)', children: [2] })];
    for (let d = 1; d <= DEPTH; d++) {
      const id = d + 1;
      nodes.push(rawNode({ id, name: `f${d}`, url: 'file:///deep.js', line0: d, children: d < DEPTH ? [id + 1] : [] }));
    }
    const text = JSON.stringify({ nodes, startTime: 0, endTime: 300, samples: [DEPTH + 1, 2 + DEPTH / 2, DEPTH + 1], timeDeltas: [0, 100, 100] });
    const profile = parseCpuProfile(text, 'deep.cpuprofile');
    const model = buildCpuModel(profile);
    const summary = summarizeCpu(profile, { profileFile: 'deep.cpuprofile' });
    assert.equal(profile.nodes.length, DEPTH + 1);
    assert.equal(model.functions.find((f) => f.name === 'f1')!.totalUs, 300);
    assert.equal(model.functions.find((f) => f.name === `f${DEPTH}`)!.totalUs, 200);
    assert.equal(model.functions.find((f) => f.name === `f${DEPTH}`)!.selfUs, 200);
    assert.equal(summary.functions.length, DEPTH);
  });

  it('modern: one function recursing 20,000 deep is counted once per sample', () => {
    const nodes = [rawNode({ id: 1, name: '(root)', children: [2] })];
    for (let d = 1; d <= DEPTH; d++) nodes.push(rawNode({ id: d + 1, name: 'walk', url: 'file:///r.js', children: d < DEPTH ? [d + 2] : [] }));
    const samples = Array.from({ length: 50 }, (_, i) => 2 + ((i * 397) % DEPTH));
    const text = JSON.stringify({ nodes, startTime: 0, endTime: 500, samples, timeDeltas: samples.map(() => 10) });
    const model = buildCpuModel(parseCpuProfile(text, 'recursive.cpuprofile'));
    const walk = model.functions.find((f) => f.name === 'walk')!;
    assert.equal(walk.totalUs, 500 - 10);
    assert.equal(walk.selfUs, 500 - 10);
  });

  it('legacy: a 20,000-deep nested head tree', () => {
    let head = '';
    for (let d = 0; d <= DEPTH; d++) head += `{"functionName":"f${d}","url":"x.js","lineNumber":${d},"id":${d + 1},"children":[`;
    for (let d = 0; d <= DEPTH; d++) head += ']}';
    const text = `{"head":${head},"startTime":1,"endTime":1,"samples":[${DEPTH + 1},1],"timestamps":[1000,1100,1300]}`;
    const model = buildCpuModel(parseCpuProfile(text, 'deep-legacy.cpuprofile'));
    assert.equal(model.profile.nodes.length, DEPTH + 1);
    assert.equal(model.functions.find((f) => f.name === 'f0')!.totalUs, 300);
    assert.equal(model.functions.find((f) => f.name === `f${DEPTH}`)!.totalUs, 100);
  });
});
