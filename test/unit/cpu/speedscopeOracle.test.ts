/**
 * The outside oracle: speedscope's own expected per-function weights for two real profiles (one in
 * the legacy format), reproduced to the microsecond.
 *
 * The one intended difference: speedscope gives the last sample no weight, we give it the time up to
 * the end of profiling. So every function on the last sample's stack must exceed speedscope's total
 * by exactly that weight (and the leaf's self time too); all others must match exactly.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildCpuModel, type CpuFunctionTime } from '../../../src/core/cpu/cpuModel';
import { parseCpuProfile } from '../../../src/core/cpu/parseCpuProfile';
import { summarizeCpu } from '../../../src/core/cpu/cpuSummary';
import { SPEEDSCOPE_DIR } from './cpuTestHelpers';

interface ExpectedFrame {
  name: string;
  line: number;
  col: number;
  selfWeightUs: number;
  totalWeightUs: number;
}

const expected = JSON.parse(readFileSync(join(SPEEDSCOPE_DIR, 'expected-weights.json'), 'utf8')) as Record<
  string,
  { frames: ExpectedFrame[] }
>;

interface RawProfile {
  nodes?: Array<{ id: number; children?: number[] }>;
  head?: unknown;
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas?: number[];
  timestamps?: number[];
}

/** The last sample's weight, computed from the raw file, independently of the code under test. */
function lastSampleWeight(raw: RawProfile): number {
  const n = raw.samples.length;
  if (raw.timeDeltas) {
    const lastTime = raw.startTime + raw.timeDeltas.reduce((a, b) => a + b, 0);
    return Math.max(0, raw.endTime - lastTime);
  }
  // Legacy: one timestamp per sample plus a trailing one that ends the last sample.
  const ts = raw.timestamps!;
  return ts.length > n ? ts[n]! - ts[n - 1]! : 0;
}

for (const file of ['chrome65-simple.cpuprofile', 'node10-example.cpuprofile']) {
  describe(`speedscope oracle: ${file}`, () => {
    const text = readFileSync(join(SPEEDSCOPE_DIR, file), 'utf8');
    const raw = JSON.parse(text) as RawProfile;
    const profile = parseCpuProfile(text, file);
    const model = buildCpuModel(profile);
    const lastWeight = lastSampleWeight(raw);

    // Functions on the last sample's stack, walked up from its leaf.
    const lastStack = new Set<CpuFunctionTime>();
    for (let n = profile.samples[profile.samples.length - 1]!; n >= 0; n = profile.parents[n]!) {
      lastStack.add(model.functions[model.nodeFunction[n]!]!);
    }
    const lastLeaf = model.functions[model.nodeFunction[profile.samples[profile.samples.length - 1]!]!]!;

    it('has a last sample with weight, so the exception is exercised', () => {
      assert.ok(lastWeight > 0);
      assert.equal(model.lastSampleWeightUs, lastWeight);
    });

    const frames = expected[file]!.frames;
    for (const frame of frames) {
      it(`${frame.name} at ${frame.line}:${frame.col}: self and total to the microsecond`, () => {
        const ours = model.functions.filter((f) => f.name === frame.name && f.line === frame.line && f.column === frame.col);
        assert.equal(ours.length, 1, `exactly one function ${frame.name} ${frame.line}:${frame.col}`);
        const f = ours[0]!;
        const onLastStack = lastStack.has(f);
        assert.equal(f.totalUs - frame.totalWeightUs, onLastStack ? lastWeight : 0, 'total');
        assert.equal(f.selfUs - frame.selfWeightUs, f === lastLeaf ? lastWeight : 0, 'self');
      });
    }

    it('has no function speedscope does not list, except (root)', () => {
      const names = new Set(frames.map((f) => `${f.name}:${f.line}:${f.col}`));
      const extra = model.functions.filter((f) => !names.has(`${f.name}:${f.line}:${f.column}`)).map((f) => f.name);
      assert.deepEqual(extra, ['(root)']);
    });

    it('reports the same numbers in the summary, in ms rounded to the microsecond', () => {
      const summary = summarizeCpu(profile, { profileFile: file });
      for (const f of summary.functions) {
        const m = model.functions.find((x) => x.name === f.name && x.line === f.line && x.column === f.column)!;
        assert.equal(f.selfMs, m.selfUs / 1000);
        assert.equal(f.totalMs, m.totalUs / 1000);
      }
      assert.equal(summary.sampleCount, raw.samples.length);
      assert.ok(!summary.functions.some((f) => f.name === '(root)'));
    });
  });
}
