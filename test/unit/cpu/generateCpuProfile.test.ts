/** The benchmark's profile generator: valid, realistic in shape, about the size asked, deterministic. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateCpuProfile } from '../../../bench/generateCpuProfile';
import { buildCpuModel } from '../../../src/core/cpu/cpuModel';
import { parseCpuProfile } from '../../../src/core/cpu/parseCpuProfile';

describe('generateCpuProfile', () => {
  const size = 4 * 1024 * 1024;
  const text = generateCpuProfile(size, 3);

  it('is deterministic for a seed', () => {
    assert.equal(generateCpuProfile(size, 3), text);
    assert.notEqual(generateCpuProfile(size, 4), text);
  });

  it('is about the requested size', () => {
    assert.ok(Math.abs(text.length - size) / size < 0.1, `${text.length} vs ${size}`);
  });

  it('is a valid profile with the features the benchmark needs', () => {
    const raw = JSON.parse(text) as {
      nodes: Array<{ id: number; callFrame: { url: string }; positionTicks?: unknown[] }>;
      timeDeltas: number[];
    };
    const profile = parseCpuProfile(text, 'generated.cpuprofile');
    // Its deliberate long gaps (a blocked sampler thread, 0.2% of the deltas, 5–65 ms) are said; nothing else is.
    assert.deepEqual(profile.warnings.filter((w) => !/ had no CPU sample \(/.test(w)), []);
    assert.ok(profile.warnings.some((w) => / had no CPU sample \(\d+ gaps/.test(w)), profile.warnings.join('\n'));
    assert.ok(profile.nodes.length > 5000, `${profile.nodes.length} nodes`);
    assert.ok(profile.samples.length > 100_000, `${profile.samples.length} samples`);
    assert.ok(raw.timeDeltas.some((d) => d < 0), 'negative deltas');
    assert.ok(raw.nodes.some((n) => n.positionTicks), 'positionTicks');
    assert.ok(raw.nodes.some((n) => n.callFrame.url.includes('/node_modules/')), 'dependency urls');
    assert.ok(raw.nodes.some((n) => n.callFrame.url.startsWith('node:internal/')), 'node internals');
    const ids = raw.nodes.map((n) => n.id);
    assert.ok(ids.some((id, i) => i > 0 && id < ids[i - 1]!), 'ids not sorted');
    assert.ok(Math.max(...ids) > ids.length, 'ids not dense');

    let depth = 0;
    for (let i = 0; i < profile.parents.length; i++) {
      let d = 0;
      for (let n = i; profile.parents[n]! >= 0; n = profile.parents[n]!) d++;
      depth = Math.max(depth, d);
    }
    assert.ok(depth >= 100, `depth ${depth}`);
    const model = buildCpuModel(profile);
    assert.ok(model.functions.some((f) => f.name === '(garbage collector)' && f.selfUs > 0));
  });
});
