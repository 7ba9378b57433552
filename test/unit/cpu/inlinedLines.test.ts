/**
 * Where line ticks of inlined code go (inlinedLines.ts), on the integration fixture's real sources
 * (app.js requires orders.js; handle() runs orderTotal() and lineTotal() inlined) and small profiles
 * written out here: V8 up to Node 24 gives handle's node the ticks of orders.js:12 at "app.js:12",
 * which in app.js is reportHandler, a function that never runs.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { buildCpuModel } from '../../../src/core/cpu/cpuModel';
import { parseCpuProfile } from '../../../src/core/cpu/parseCpuProfile';
import { outlineScript, type ScriptOutline } from '../../../src/core/cpu/scriptOutline';

const DIR = join(__dirname, '..', '..', 'fixtures', 'programs', 'inlined-lines');
const APP = pathToFileURL(join(DIR, 'app.js')).href;
const ORDERS = pathToFileURL(join(DIR, 'orders.js')).href;
const outlines = new Map<string, ScriptOutline | null>([
  [APP, outlineScript(readFileSync(join(DIR, 'app.js'), 'utf8'))],
  [ORDERS, outlineScript(readFileSync(join(DIR, 'orders.js'), 'utf8'))],
]);

interface Frame {
  name: string;
  url: string;
  /** 0-based, as in a .cpuprofile. */
  line: number;
  column: number;
  ticks?: Record<number, number>;
  children?: Frame[];
}

const main = (children: Frame[]): Frame => ({ name: '', url: APP, line: 0, column: 0, children: [{ name: 'main', url: APP, line: 27, column: 13, children }] });
const handle = (ticks: Record<number, number>, children: Frame[] = []): Frame => ({ name: 'handle', url: APP, line: 21, column: 15, ticks, children });
const orderTotal = (ticks: Record<number, number>): Frame => ({ name: 'orderTotal', url: ORDERS, line: 7, column: 19, ticks });

/** A profile of these frames, one sample per tick (1 ms apart). */
function profileOf(top: Frame): string {
  const nodes: object[] = [];
  const samples: number[] = [];
  const add = (f: Frame): number => {
    const id = nodes.length + 1;
    const node = { id, callFrame: { functionName: f.name, scriptId: '1', url: f.url, lineNumber: f.line, columnNumber: f.column }, hitCount: 0, children: [] as number[], positionTicks: [] as object[] };
    nodes.push(node);
    for (const [line, n] of Object.entries(f.ticks ?? {})) {
      node.positionTicks.push({ line: Number(line), ticks: n });
      node.hitCount += n;
      for (let k = 0; k < n; k++) samples.push(id);
    }
    for (const c of f.children ?? []) node.children.push(add(c));
    return id;
  };
  add({ name: '(root)', url: '', line: -1, column: -1, children: [top] });
  return JSON.stringify({ nodes, startTime: 0, endTime: (samples.length + 1) * 1000, samples, timeDeltas: samples.map(() => 1000) });
}

function linesOf(top: Frame, known = outlines) {
  const model = buildCpuModel(parseCpuProfile(profileOf(top), 'test.cpuprofile'), { outlineOf: (url) => known.get(url) ?? null });
  const lines = Object.fromEntries(model.lines.map((l) => [`${l.url === APP ? 'app.js' : l.url === ORDERS ? 'orders.js' : l.url}:${l.line}`, l.selfUs / 1000]));
  return { lines, inlined: model.inlinedLines! };
}

describe('line ticks of inlined code', () => {
  it("go to the file of the function that ran below the outer one: orders.js:12, not app.js's reportHandler", () => {
    const { lines, inlined } = linesOf(main([handle({ 24: 2, 12: 6 }, [orderTotal({ 12: 3 })])]));
    assert.deepEqual(lines, { 'app.js:24': 2, 'orders.js:12': 9 });
    assert.deepEqual([inlined.movedUs, inlined.droppedUs], [6000, 0]);
  });

  it('go to a function that ran elsewhere in the profile (its callee was inlined before a sample saw it below)', () => {
    const { lines } = linesOf(main([orderTotal({ 12: 1 }), handle({ 24: 2, 12: 6 })]));
    assert.deepEqual(lines, { 'app.js:24': 2, 'orders.js:12': 7 });
  });

  it('are dropped, not put on a never-run function of a seen script, when a module the script loads is in no node', () => {
    // orders.js, always inlined, was never sampled: app.js's reportHandler is the only function of
    // the profile's scripts on line 12, but app.js requires ./orders, which could have it.
    const { lines, inlined } = linesOf(main([handle({ 24: 2, 12: 6 })]));
    assert.deepEqual(lines, { 'app.js:24': 2 });
    assert.deepEqual([inlined.movedUs, inlined.droppedUs], [0, 6000]);
  });

  it("stay on the script's own never-sampled function when every module it loads is in the profile", () => {
    // lineTotal (orders.js:5) never ran on its own; orderTotal's node, inlining it, gives its line.
    const { lines, inlined } = linesOf(main([handle({ 24: 1 }, [orderTotal({ 12: 3, 5: 2 })])]));
    assert.deepEqual(lines, { 'app.js:24': 1, 'orders.js:12': 3, 'orders.js:5': 2 });
    assert.deepEqual([inlined.movedUs, inlined.droppedUs], [0, 0]);
  });

  it('a script whose source has no outline keeps V8 its lines, unchecked', () => {
    const { lines, inlined } = linesOf(main([handle({ 24: 2, 12: 6 })]), new Map());
    assert.deepEqual(lines, { 'app.js:24': 2, 'app.js:12': 6 });
    assert.deepEqual([inlined.uncheckedUs, inlined.droppedUs], [8000, 0]);
  });
});
