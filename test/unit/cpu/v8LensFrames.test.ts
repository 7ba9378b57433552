/**
 * V8 Lens's own frames in a profile (its preload runs on the app's thread): recognised by the
 * preload's path in either form V8 writes it, folded with everything below them into one
 * `(V8 Lens)` frame under the root, and left out of every figure built from the model: the summary
 * (stated once as `leftOut`), the flame tree, the page's hot table, the pprof samples. Worked by hand
 * on a small profile whose numbers can be checked.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildCpuModel } from '../../../src/core/cpu/cpuModel';
import { summarizeCpu } from '../../../src/core/cpu/cpuSummary';
import { parseCpuProfile } from '../../../src/core/cpu/parseCpuProfile';
import { foldV8LensFrames, v8LensScripts } from '../../../src/core/cpu/v8LensFrames';
import { addCpuSamples, CPU_SAMPLE_TYPES } from '../../../src/core/pprof/cpuToPprof';
import { PprofBuilder } from '../../../src/core/pprof/pprofBuilder';
import { buildFlameTree, type FlameNode } from '../../../src/core/report/flameTree';
import { buildTimeProfile } from '../../../src/core/report/timeProfile';
import { frameCategory, V8_LENS_FRAME } from '../../../src/shared/frameCategory';
import { functionTimes } from '../../../src/shared/profile/functionTimes';
import { ProfileIndex } from '../../../src/shared/profile/profileIndex';
import { profileText } from './cpuTestHelpers';

const PRELOAD = '/ext/v8-lens-0.2.0/dist/preload.js';

// root ─ main (app.js) ─ helper (app.js)
//      ├ emit (node:events) ─ (anonymous, preload as a file URL) ─ stop (preload) ─ post (node:inspector)
//      ├ start (preload, as a path: a heap profile's form)
//      └ (program)
// Samples 10 µs apart from 1,000,100 (100 µs after the start), the last lasting 20 µs more.
const text = profileText({
  nodes: [
    { id: 1, name: '(root)', children: [2, 4, 8, 9] },
    { id: 2, name: 'main', url: 'file:///app/app.js', line0: 0, children: [3] },
    { id: 3, name: 'helper', url: 'file:///app/app.js', line0: 4, positionTicks: [{ line: 6, ticks: 1 }] },
    { id: 4, name: 'emit', url: 'node:events', line0: 470, children: [5] },
    { id: 5, name: '', url: `file://${PRELOAD}`, line0: 312, children: [6] },
    { id: 6, name: 'stop', url: `file://${PRELOAD}`, line0: 167, children: [7], positionTicks: [{ line: 170, ticks: 1 }] },
    { id: 7, name: 'post', url: 'node:inspector', line0: 111 },
    { id: 8, name: 'start', url: PRELOAD, line0: 232 },
    { id: 9, name: '(program)' },
  ],
  samples: [2, 3, 7, 6, 8, 9, 3],
  timeDeltas: [100, 10, 10, 10, 10, 10, 10],
  startTime: 1_000_000,
  endTime: 1_000_000 + 160 + 20,
});
const isV8Lens = v8LensScripts([PRELOAD])!;

describe('V8 Lens\'s own frames', () => {
  it('are known by the preload\'s path, as a path or as a file:// URL, and nothing else is', () => {
    assert.ok(isV8Lens(PRELOAD));
    assert.ok(isV8Lens(`file://${PRELOAD}`));
    assert.ok(isV8Lens('/ext/v8-lens-0.2.0/dist/../dist/preload.js'), 'the same file by another spelling');
    assert.ok(!isV8Lens('/app/dist/preload.js'), 'an app\'s own preload.js is the app\'s');
    assert.ok(!isV8Lens(''));
    assert.equal(v8LensScripts([null, undefined]), null, 'no known preload: nothing is folded');
  });

  it('fold with everything below them into one (V8 Lens) frame under the root; the input is left as it was', () => {
    const profile = parseCpuProfile(text, 'p.cpuprofile');
    const { profile: folded, v8LensNode } = foldV8LensFrames(profile, isV8Lens);
    assert.equal(profile.nodes.length, 9);
    assert.deepEqual(folded.nodes.map((n) => n.callFrame.functionName), ['(root)', 'main', 'helper', 'emit', '(program)', V8_LENS_FRAME]);
    assert.equal(v8LensNode, 5);
    assert.equal(folded.parents[v8LensNode], 0);
    assert.ok(!folded.frames.some((f) => isV8Lens(f.url)), 'no frame of the preload is left, even without time');
    assert.deepEqual([...folded.samples], [1, 2, 5, 5, 5, 4, 2]);
    assert.equal(frameCategory(V8_LENS_FRAME, '', 0), 'tool');
    assert.equal(foldV8LensFrames(profile, v8LensScripts(['/elsewhere/preload.js'])).profile, profile, 'none of its frames: the same profile');
  });

  it('are left out of the summary, which says once what it left out, and the self times add up to the sampled time', () => {
    const summary = summarizeCpu(parseCpuProfile(text, 'p.cpuprofile'), { profileFile: 'p', isV8LensScript: isV8Lens });
    assert.deepEqual(summary.functions.map((f) => [f.name, f.selfMs, f.totalMs]), [
      ['helper', 0.03, 0.03],
      ['main', 0.01, 0.04],
      ['(program)', 0.01, 0.01],
    ]);
    assert.ok(!summary.functions.some((f) => f.name === 'emit'), 'emit ran only the agent: no time of the app\'s');
    assert.deepEqual(summary.lines, [{ url: 'file:///app/app.js', line: 6, selfMs: 0.03 }]);
    assert.deepEqual(summary.leftOut, { v8LensMs: 0.03, v8LensSamples: 3, beforeFirstSampleMs: 0.1 });
    assert.equal(summary.sampleCount, 4);
    assert.equal(summary.durationMs, 0.05);
    assert.equal(summary.functions.reduce((sum, f) => sum + f.selfMs, 0), summary.durationMs);
    // The profile's wall time, all accounted for: sampled + V8 Lens's + before the first sample.
    assert.equal(Math.round((summary.durationMs + summary.leftOut!.v8LensMs + summary.leftOut!.beforeFirstSampleMs) * 1000), 180);
  });

  it('are not in the flame tree, the page\'s hot table or the pprof; the time profile keeps them as one grey frame', () => {
    const model = buildCpuModel(parseCpuProfile(text, 'p.cpuprofile'), { isV8LensScript: isV8Lens });
    const names: string[] = [];
    const walk = (n: FlameNode) => {
      names.push(n.name);
      n.children.forEach(walk);
    };
    walk(buildFlameTree(model)!);
    assert.deepEqual(names.sort(), ['(program)', 'all', 'helper', 'main']);

    const time = buildTimeProfile(model);
    const index = new ProfileIndex(time);
    const v8Lens = time.fnName.findIndex((s) => time.strings[s] === V8_LENS_FRAME);
    assert.ok(v8Lens >= 0 && index.fn(v8Lens).category === 'tool', 'the timeline shows where the agent ran');
    assert.deepEqual(functionTimes(index, index.selfUs(null)).map((f) => f.name).sort(), ['(program)', 'helper', 'main']);

    const builder = new PprofBuilder(CPU_SAMPLE_TYPES);
    addCpuSamples(builder, model, []);
    const profile = builder.build({ period: { type: 'cpu', unit: 'nanoseconds', value: 10_000 }, defaultSampleType: 'cpu', timeNanos: 0, durationNanos: 0, comments: [] });
    const str = (i: number | bigint) => profile.stringTable.strings[Number(i)]!;
    assert.deepEqual(profile.function.map((f) => str(f.name)).sort(), ['(program)', 'helper', 'main']);
    assert.equal(profile.sample.reduce((sum, s) => sum + Number(s.value[1]), 0), 50_000, 'the app\'s 50 µs');
  });
});
