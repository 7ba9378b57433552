/**
 * A real 1 MB profile (a sucrase build run in Chrome 65), checked for internal consistency and
 * against a deliberately naive reference written here: a Set per sample, a walk up every stack,
 * no sharing with the code under test.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildCpuModel } from '../../../src/core/cpu/cpuModel';
import { parseCpuProfile } from '../../../src/core/cpu/parseCpuProfile';
import { summarizeCpu } from '../../../src/core/cpu/cpuSummary';
import { SPEEDSCOPE_DIR } from './cpuTestHelpers';

const FILE = 'chrome65-sucrase.cpuprofile';
const text = readFileSync(join(SPEEDSCOPE_DIR, FILE), 'utf8');

interface RawNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

/** Self/total per "name url line col" key, the slow obvious way. */
function reference(): Map<string, { self: number; total: number }> {
  const raw = JSON.parse(text) as { nodes: RawNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };
  const byId = new Map(raw.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of raw.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
  const keyOf = (n: RawNode) => {
    const f = n.callFrame;
    return `${f.functionName || '(anonymous)'} ${f.url} ${f.lineNumber + 1} ${f.columnNumber + 1}`;
  };
  const times: number[] = [];
  let t = raw.startTime;
  for (const d of raw.timeDeltas) {
    t += d;
    times.push(Math.max(t, times[times.length - 1] ?? -Infinity));
  }
  const result = new Map<string, { self: number; total: number }>();
  const entry = (key: string) => {
    let e = result.get(key);
    if (!e) result.set(key, (e = { self: 0, total: 0 }));
    return e;
  };
  raw.samples.forEach((id, i) => {
    const weight = i + 1 < times.length ? times[i + 1]! - times[i]! : Math.max(0, raw.endTime - times[i]!);
    entry(keyOf(byId.get(id)!)).self += weight;
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parentOf.get(n)) {
      const key = keyOf(byId.get(n)!);
      if (!seen.has(key)) {
        seen.add(key);
        entry(key).total += weight;
      }
    }
  });
  return result;
}

describe(`real profile: ${FILE}`, () => {
  const profile = parseCpuProfile(text, FILE);
  const model = buildCpuModel(profile);
  const summary = summarizeCpu(profile, { profileFile: FILE });

  it('loads without warnings, 3,493 nodes and 17,138 samples', () => {
    assert.deepEqual(profile.warnings, []);
    assert.equal(profile.nodes.length, 3493);
    assert.equal(summary.sampleCount, 17138);
  });

  it('self times add up to the time the samples cover', () => {
    const selfSum = model.functions.reduce((s, f) => s + f.selfUs, 0);
    assert.ok(Math.abs(selfSum - model.coveredUs) < 1e-6, `${selfSum} vs ${model.coveredUs}`);
    // Covered = duration minus the lead-in before the first sample.
    const raw = JSON.parse(text) as { startTime: number; endTime: number; timeDeltas: number[] };
    assert.equal(model.durationUs, raw.endTime - raw.startTime);
    assert.equal(model.coveredUs, model.durationUs - raw.timeDeltas[0]!);
  });

  it('totals are at least the selfs and never exceed the duration', () => {
    for (const f of model.functions) {
      assert.ok(f.totalUs >= f.selfUs, f.name);
      assert.ok(f.totalUs <= model.durationUs, f.name);
    }
    for (const f of summary.functions) assert.ok(f.totalMs <= summary.durationMs, f.name);
  });

  it('matches the naive reference for every function', () => {
    const ref = reference();
    const ours = new Map(model.functions.map((f) => [`${f.name} ${f.url} ${f.line} ${f.column}`, f]));
    assert.equal(ours.size, ref.size);
    for (const [key, r] of ref) {
      const f = ours.get(key);
      assert.ok(f, key);
      assert.ok(Math.abs(f.selfUs - r.self) < 1e-6, `${key} self ${f.selfUs} vs ${r.self}`);
      assert.ok(Math.abs(f.totalUs - r.total) < 1e-6, `${key} total ${f.totalUs} vs ${r.total}`);
    }
  });

  it('puts the same function on top as the reference', () => {
    const ref = [...reference()].filter(([key]) => !key.startsWith('(root) ')).sort((a, b) => b[1].self - a[1].self);
    const top = summary.functions[0]!;
    assert.equal(`${top.name} ${top.url} ${top.line} ${top.column}`, ref[0]![0]);
    assert.equal(top.name, '(garbage collector)');
    assert.equal(summary.pseudo.gcMs, top.selfMs);
    const js = summary.functions.find((f) => f.url !== '')!;
    assert.equal(js.name, 'Object.keys.forEach');
    assert.equal(js.line, 56); // lineNumber 55 in the file
  });

  it('sorts functions and lines by self time, with 1-based lines', () => {
    for (let i = 1; i < summary.functions.length; i++) assert.ok(summary.functions[i - 1]!.selfMs >= summary.functions[i]!.selfMs);
    for (let i = 1; i < summary.lines.length; i++) assert.ok(summary.lines[i - 1]!.selfMs >= summary.lines[i]!.selfMs);
    assert.ok(summary.lines.length > 0);
    for (const l of summary.lines) {
      assert.notEqual(l.url, '');
      assert.ok(l.line >= 1);
    }
    const lineSum = summary.lines.reduce((s, l) => s + l.selfMs, 0);
    const tickedSelf = profile.nodes.reduce(
      (s, n, i) => (n.positionTicks.length > 0 && n.callFrame.url !== '' ? s + model.nodeSelfUs[i]! : s),
      0,
    );
    assert.ok(Math.abs(lineSum - tickedSelf / 1000) < 0.05, `${lineSum} vs ${tickedSelf / 1000}`);
  });
});
