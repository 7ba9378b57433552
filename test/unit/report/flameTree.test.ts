/**
 * The flame graph of a call tree 100,000 frames deep (a crafted profile: V8 records at most 255
 * frames) stops at MAX_FLAME_DEPTH with the deeper time folded into the frame there, so the report
 * page and the webview message can be serialized; real profiles are untouched.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildCpuModel } from '../../../src/core/cpu/cpuModel';
import { parseCpuProfile } from '../../../src/core/cpu/parseCpuProfile';
import { MAX_FLAME_DEPTH, buildFlameTree, type FlameNode } from '../../../src/core/report/flameTree';
import { standaloneReportHtml } from '../../../src/core/report/reportPage';
import { emptySummary } from '../../../src/shared/model/summary';

function chainProfile(depth: number): string {
  const nodes = [];
  for (let i = 1; i <= depth; i++) {
    nodes.push({ id: i, callFrame: { functionName: `f${i}`, scriptId: '1', url: 'file:///a.js', lineNumber: i, columnNumber: 1 }, children: i < depth ? [i + 1] : [] });
  }
  // Time in the deepest frame and in one near the top.
  return JSON.stringify({ nodes, startTime: 0, endTime: 4000, samples: [depth, depth, depth, 3], timeDeltas: [0, 1000, 1000, 1000] });
}

function depthAndTotal(root: FlameNode): { depth: number; total: number } {
  let depth = 0;
  let total = 0;
  const stack: Array<[FlameNode, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [node, d] = stack.pop()!;
    depth = Math.max(depth, d);
    total += node.value;
    for (const child of node.children) stack.push([child, d + 1]);
  }
  return { depth, total };
}

describe('flame tree depth', () => {
  it('folds a 100,000-frame chain at the limit, keeping every millisecond, and says so', () => {
    const warnings: string[] = [];
    const root = buildFlameTree(buildCpuModel(parseCpuProfile(chainProfile(100_000), 'deep.cpuprofile')), warnings)!;
    const { depth, total } = depthAndTotal(root);
    assert.equal(depth, MAX_FLAME_DEPTH);
    assert.equal(Math.round(total), 4);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /deeper than 1000 frames .*; 98999 deeper frame\(s\) are folded/);
    // What the report page does with it: no RangeError.
    const html = standaloneReportHtml({ title: 't', source: 's', summary: emptySummary({ kind: 'cpuprofile', path: 's' }), session: null, flame: root, gcEvents: [] }, { script: '', styles: [], theme: '' });
    assert.ok(html.includes('(and the frames below it)'));
  });

  it('leaves a real profile as it is', () => {
    const text = readFileSync(join(__dirname, '..', '..', 'fixtures', 'cpu', 'fib-recursion.cpuprofile'), 'utf8');
    const warnings: string[] = [];
    const root = buildFlameTree(buildCpuModel(parseCpuProfile(text, 'fib.cpuprofile')), warnings)!;
    assert.deepEqual(warnings, []);
    assert.ok(depthAndTotal(root).depth < MAX_FLAME_DEPTH);
  });
});
