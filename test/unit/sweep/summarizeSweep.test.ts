/**
 * From runs to per-setting figures, comparisons, warnings and the recommendation, on synthetic
 * sweeps shaped like gc.md section 8 (see sweepFixtures.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { recommend } from '../../../src/core/sweep/recommend';
import { summarizeSweep } from '../../../src/core/sweep/summarizeSweep';
import type { SweepRun } from '../../../src/shared/model/sweep';
import { ENV, SECTION8, SIZES, config, run, sweepRuns, type SettingShape } from './sweepFixtures';

const ROUNDS_WARNING =
  '3 rounds: enough to see big differences, too few to call one significant (4+ rounds for a test, 6 for a confidence interval)';

describe('summarizeSweep: section 8 shape, 6 rounds', () => {
  const cfg = config(SIZES, 6);
  const runs = sweepRuns(SECTION8, SIZES, 6);
  const { results, recommendation, warnings } = summarizeSweep(runs, cfg, ENV);

  it('groups by setting in config order, medians over the runs', () => {
    assert.deepEqual(
      results.map((r) => r.semiSpaceMB),
      SIZES,
    );
    for (const r of results) {
      assert.equal(r.validRuns, 6);
      assert.equal(r.runs.length, 6);
      assert.equal(r.effectiveSemiSpaceMB, r.semiSpaceMB);
      // Every setting got each noise value once, so the medians are the shapes' values.
      const shape = SECTION8[r.value]!;
      assert.ok(Math.abs(r.median.gcMsPer1k! - shape.gcMsPer1k) < 1e-9);
      assert.ok(Math.abs(r.median.rps! - shape.rps) < 1e-9);
      assert.equal(r.median.p50Ms, 4);
      assert.equal(r.spread.gcMsPer1k!.kind, 'ci95');
    }
    // Scavenges per 1k requests fall with size; the mean pause rises.
    const scav = results.map((r) => r.median.scavengesPer1k!);
    assert.deepEqual([...scav].sort((a, b) => b - a), scav);
    const pause = results.map((r) => r.median.meanScavengeMs!);
    assert.deepEqual([...pause].sort((a, b) => a - b), pause);
  });

  it('compares each setting with the baseline (16 MB), not the baseline with itself', () => {
    assert.deepEqual(results[0]!.vsBaseline, {});
    const at64 = results[2]!.vsBaseline;
    assert.ok(Math.abs(at64.gcMsPer1k!.ratio! - 19.1 / 36.9) < 1e-9);
    assert.ok(Math.abs(at64.gcMsPer1k!.p! - 2 / 924) < 1e-12);
    assert.equal(at64.gcMsPer1k!.significant, true);
    // p50 is the same integer everywhere: ratio 1, p = 1, not significant.
    assert.deepEqual(at64.p50Ms, { ratio: 1, p: 1, significant: false });
  });

  it('recommends 64 MB and names 128/256 MB with their RSS bill', () => {
    assert.equal(recommendation.semiSpaceMB, 64);
    const reason = recommendation.reason;
    assert.match(reason, /^64 MB: GC ms per 1k requests −48% vs 16 MB \(p < 0\.01\), req\/s \+9% \(p [<=] 0\.\d\d\), RSS \+34%/);
    assert.match(reason, /128\/256 MB: no significant further gain, \+75%\/\+150% RSS/);
    assert.doesNotMatch(reason, /Tentative/);
  });

  it('gives no warnings for a clean 6-round sweep on a quiet machine', () => {
    assert.deepEqual(warnings, []);
  });
});

describe('a setting that loses requests or runs is never recommended', () => {
  it('non-zero errors in one "ok" run of 64 MB: 128 MB is chosen, and the reason says why not 64', () => {
    const runs = sweepRuns(SECTION8, SIZES, 6, (r) =>
      r.semiSpaceMB === 64 && r.round === 2 ? { ...r, load: { ...r.load!, errors: 3 } } : r,
    );
    const { recommendation, warnings, results } = summarizeSweep(runs, config(SIZES, 6), ENV);
    assert.notEqual(recommendation.semiSpaceMB, 64);
    assert.equal(recommendation.semiSpaceMB, 128);
    assert.match(recommendation.reason, /64 MB would otherwise have won .* lost requests in 1 of 6 runs \(3 errors\)/);
    assert.ok(warnings.some((w) => w.startsWith('64 MB: 1 of 6 runs lost requests')));
    // The run still counts in the figures (it is 'ok').
    assert.equal(results[2]!.validRuns, 6);
  });

  it('an invalid run, even at the fastest setting: never recommended, said in the reason', () => {
    // 256 MB made the clear winner on GC time…
    const shapes: Record<number, SettingShape> = { ...SECTION8, 256: { ...SECTION8[256]!, gcMsPer1k: 8 } };
    const runs = sweepRuns(shapes, SIZES, 6, (r) =>
      r.semiSpaceMB === 256 && r.round === 4 ? { ...r, status: 'invalid', reason: 'exited with code 1' } : r,
    );
    const { recommendation, warnings, results } = summarizeSweep(runs, config(SIZES, 6), ENV);
    assert.equal(results[4]!.validRuns, 5);
    assert.notEqual(recommendation.semiSpaceMB, 256);
    assert.equal(recommendation.semiSpaceMB, 64);
    assert.match(recommendation.reason, /256 MB would otherwise have won .*had 1 invalid run of 6 \(exited with code 1\).*never recommended/);
    assert.ok(warnings.some((w) => w.startsWith('256 MB: 1 of 6 runs invalid (exited with code 1)')));
  });

  it('timeouts and non-2xx answers count as lost requests too', () => {
    for (const lost of [{ timeouts: 2 }, { non2xx: 12 }]) {
      const runs = sweepRuns(SECTION8, SIZES, 6, (r) =>
        r.semiSpaceMB !== 16 && r.round === 0 ? { ...r, load: { ...r.load!, ...lost } } : r,
      );
      const { recommendation } = summarizeSweep(runs, config(SIZES, 6), ENV);
      assert.equal(recommendation.semiSpaceMB, null);
      assert.match(recommendation.reason, /^Keep the baseline, 16 MB: every setting other than 16 MB lost requests or had invalid runs/);
    }
  });
});

describe('keep the default', () => {
  it('all noise: the same distribution everywhere → keep the default, no detectable difference', () => {
    const same = SECTION8[16]!;
    const shapes = Object.fromEntries(SIZES.map((s) => [s, same]));
    const { recommendation } = summarizeSweep(sweepRuns(shapes, SIZES, 6), config(SIZES, 6), ENV);
    assert.equal(recommendation.semiSpaceMB, null);
    assert.match(recommendation.reason, /^Keep the baseline, 16 MB: no detectable difference/);
  });

  it('noisy data with small differences → keep the default', () => {
    const shapes = Object.fromEntries(
      SIZES.map((s, i) => [s, { ...SECTION8[16]!, gcMsPer1k: 36.9 * (1 - 0.01 * i), rps: 3635 * (1 + 0.01 * i) }]),
    );
    const { recommendation } = summarizeSweep(sweepRuns(shapes, SIZES, 6), config(SIZES, 6), ENV);
    assert.equal(recommendation.semiSpaceMB, null);
    assert.match(recommendation.reason, /no detectable difference/);
  });

  it('a GC win that costs req/s significantly → keep the default and say so', () => {
    const shapes: Record<number, SettingShape> = {
      16: SECTION8[16]!,
      64: { ...SECTION8[64]!, rps: 3000 },
    };
    const { recommendation } = summarizeSweep(sweepRuns(shapes, [16, 64], 6), config([16, 64], 6), ENV);
    assert.equal(recommendation.semiSpaceMB, null);
    assert.match(recommendation.reason, /64 MB cut GC ms per 1k requests −48% \(p < 0\.01\) but cost req\/s −17%/);
  });
});

describe('3 rounds', () => {
  const noise = [-0.04, 0, 0.04];

  it('a big effect with ranges apart → tentative, never called significant', () => {
    const { recommendation, warnings, results } = summarizeSweep(sweepRuns(SECTION8, SIZES, 3, undefined, noise), config(SIZES, 3), ENV);
    assert.ok(results.every((r) => r.vsBaseline.gcMsPer1k === undefined || !r.vsBaseline.gcMsPer1k.significant));
    assert.equal(recommendation.semiSpaceMB, 64);
    assert.ok(recommendation.reason.startsWith('Tentative (3 rounds, no test possible): 64 MB: GC ms per 1k requests −48%'));
    assert.match(recommendation.reason, /128\/256 MB: GC ms per 1k −4%\/−6% further \(untested\), \+75%\/\+150% RSS/);
    assert.deepEqual(warnings, [ROUNDS_WARNING]);
  });

  it('a moderate effect (ratio ≥ 0.7) → keep the default, too few rounds', () => {
    const shapes = Object.fromEntries(SIZES.map((s, i) => [s, { ...SECTION8[16]!, gcMsPer1k: 36.9 * (1 - 0.05 * i) }]));
    const { recommendation } = summarizeSweep(sweepRuns(shapes, SIZES, 3, undefined, noise), config(SIZES, 3), ENV);
    assert.equal(recommendation.semiSpaceMB, null);
    assert.match(recommendation.reason, /^Keep the baseline, 16 MB: 3 rounds are too few for a test/);
  });

  it('a big GC gain that req/s did not follow → keep the default, and the reason names the req/s drop', () => {
    const shapes = { 16: SECTION8[16]!, 64: { ...SECTION8[64]!, rps: SECTION8[16]!.rps * 0.9 } };
    const { recommendation } = summarizeSweep(sweepRuns(shapes, [16, 64], 3, undefined, noise), config([16, 64], 3), ENV);
    assert.equal(recommendation.semiSpaceMB, null);
    assert.match(recommendation.reason, /^Keep the baseline, 16 MB: 64 MB cut GC ms per 1k requests −48% vs 16 MB \(ranges do not overlap\), but req\/s fell −10%; with 3 rounds no test can tell/);
  });

  it('a big effect whose ranges overlap the baseline → keep the default', () => {
    const runs = sweepRuns(SECTION8, [16, 64], 3, undefined, noise).map((r) =>
      r.semiSpaceMB === 64 && r.round === 1 ? { ...r, gcMsPer1k: 40 } : r,
    );
    const { recommendation } = summarizeSweep(runs, config([16, 64], 3), ENV);
    assert.equal(recommendation.semiSpaceMB, null);
    assert.match(recommendation.reason, /too few for a test/);
  });
});

describe('warnings', () => {
  it('names the highest load average above half the cores', () => {
    const runs = sweepRuns(SECTION8, SIZES, 6, (r) =>
      r.index === 7 ? { ...r, loadAverage1m: 1.62 } : r.index === 3 ? { ...r, loadAverage1m: 1.2 } : r,
    );
    const { warnings } = summarizeSweep(runs, config(SIZES, 6), ENV);
    const w = warnings.find((x) => x.startsWith('Load average'));
    assert.ok(w, warnings.join('\n'));
    assert.match(w, /^Load average was 1\.62 before run 8 \(128 MB\), above half of the 2 cores \(2 runs started that busy\)/);
  });

  it('counts invalid runs per setting and says when the effective semi-space differs', () => {
    const runs = sweepRuns(SECTION8, SIZES, 4, (r) => {
      if (r.semiSpaceMB === 256) return { ...r, effectiveSemiSpaceMB: 128 };
      if (r.semiSpaceMB === 32 && r.round < 2) return { ...r, status: 'invalid', reason: 'never answered http://127.0.0.1:3000/ within 30 s', load: null, gc: null };
      return r;
    });
    const { warnings, results } = summarizeSweep(runs, config(SIZES, 4), ENV);
    assert.equal(results[4]!.effectiveSemiSpaceMB, 128);
    assert.ok(warnings.includes('32 MB: 2 of 4 runs invalid (never answered http://127.0.0.1:3000/ within 30 s); left out of the figures, and the setting is never recommended.'));
    assert.ok(warnings.some((w) => /^256 MB requested, but the process had a 128 MB semi-space/.test(w)));
    assert.ok(warnings.some((w) => w.startsWith('2 valid rounds (of 4): enough to see big differences')));
  });

  it('the 3-round warning text', () => {
    const { warnings } = summarizeSweep(sweepRuns(SECTION8, SIZES, 3), config(SIZES, 3), ENV);
    assert.ok(warnings.includes(ROUNDS_WARNING));
  });
});

describe('robustness', () => {
  it('settings without valid runs get null medians; never throws', () => {
    const runs: SweepRun[] = [
      run(16, 0, 0, SECTION8[16]!),
      run(64, 0, 1, SECTION8[64]!, { status: 'invalid', reason: 'exited with code 1', load: null, gc: null, gcMsPer1k: null, scavengesPer1k: null, peakRssMB: null, gcWallShare: null, gcCpuShare: null }),
    ];
    const out = summarizeSweep(runs, config([16, 64, 128], 1), ENV);
    assert.equal(out.results.length, 3);
    assert.equal(out.results[1]!.validRuns, 0);
    assert.ok(Object.values(out.results[1]!.median).every((v) => v === null));
    assert.ok(Object.values(out.results[2]!.median).every((v) => v === null));
    assert.equal(out.recommendation.semiSpaceMB, null);
    assert.doesNotThrow(() => summarizeSweep([], config([], 0), ENV));
    assert.equal(summarizeSweep([], config([], 0), ENV).recommendation.semiSpaceMB, null);
  });

  it('keeps runs of sizes outside the config, after the configured ones', () => {
    const runs = [run(16, 0, 0, SECTION8[16]!), run(8, 0, 1, SECTION8[16]!)];
    const out = summarizeSweep(runs, config([16], 1), ENV);
    assert.deepEqual(
      out.results.map((r) => r.semiSpaceMB),
      [16, 8],
    );
  });

  it('recommend() with no baseline data keeps the default', () => {
    assert.equal(recommend([], 16).semiSpaceMB, null);
  });

  it('cancelled runs are left out and do not disqualify a setting', () => {
    const runs = sweepRuns(SECTION8, SIZES, 7, (r) => (r.round === 6 && r.semiSpaceMB === 64 ? { ...r, status: 'cancelled', load: null, gc: null } : r));
    const out = summarizeSweep(
      runs.filter((r) => r.round < 6 || r.semiSpaceMB === 64),
      config(SIZES, 7),
      ENV,
    );
    assert.equal(out.results[2]!.validRuns, 6);
    assert.equal(out.recommendation.semiSpaceMB, 64);
    assert.ok(out.warnings.includes('1 run was cancelled and left out.'));
  });
});

describe('2 rounds', () => {
  it('no tentative call from two runs per setting, however big the effect', () => {
    const { recommendation } = summarizeSweep(sweepRuns(SECTION8, SIZES, 2), config(SIZES, 2), ENV);
    assert.equal(recommendation.semiSpaceMB, null);
    assert.match(recommendation.reason, /^Keep the baseline, 16 MB: 2 rounds are too few for a test/);
  });
});

describe('larger sizes with a significant but small further gain', () => {
  it('are named with the gain, its p and the RSS bill; the smaller size within 10% still wins', () => {
    const quiet = [-0.008, 0.005, -0.002, 0.008, -0.005, 0.002];
    const shapes: Record<number, SettingShape> = { ...SECTION8, 256: { ...SECTION8[256]!, gcMsPer1k: 17.6 } };
    const { recommendation } = summarizeSweep(sweepRuns(shapes, SIZES, 6, undefined, quiet), config(SIZES, 6), ENV);
    assert.equal(recommendation.semiSpaceMB, 64);
    assert.match(recommendation.reason, /128 MB: GC ms per 1k a further −4% \(p < 0\.01\) for \+75% RSS; 256 MB: GC ms per 1k a further −8% \(p < 0\.01\) for \+150% RSS\.$/);
  });
});

describe('measured and profiling runs', () => {
  /** Measured runs of a 6-round sweep, then one profiling run per size with its own (slower, sampled) figures. */
  function withProfiling(): SweepRun[] {
    const measured = sweepRuns(SECTION8, SIZES, 6).map((r) => ({ ...r, purpose: 'measure' as const, allocBytesPerRequest: null }));
    const profiling = SIZES.map((size, i) =>
      run(size, 6, measured.length + i, { ...SECTION8[size]!, rps: SECTION8[size]!.rps * 0.5, gcMsPer1k: SECTION8[size]!.gcMsPer1k * 3 }, { purpose: 'profile', allocBytesPerRequest: 50_000 + i }),
    );
    return [...measured, ...profiling];
  }

  it('takes every statistic from the measured runs and the allocations from the profiling runs', () => {
    const all = summarizeSweep(withProfiling(), config(SIZES, 6), ENV);
    const measuredOnly = summarizeSweep(
      withProfiling().filter((r) => r.purpose === 'measure'),
      config(SIZES, 6),
      ENV,
    );
    for (let i = 0; i < SIZES.length; i++) {
      const a = all.results[i]!;
      const m = measuredOnly.results[i]!;
      assert.equal(a.validRuns, 6, 'profiling runs are not rounds');
      assert.equal(a.median.gcMsPer1k, m.median.gcMsPer1k);
      assert.equal(a.median.rps, m.median.rps);
      assert.deepEqual(a.vsBaseline.gcMsPer1k, m.vsBaseline.gcMsPer1k);
      assert.equal(a.median.allocBytesPerRequest, 50_000 + i);
      assert.equal(m.median.allocBytesPerRequest, null);
    }
    assert.equal(all.recommendation.semiSpaceMB, measuredOnly.recommendation.semiSpaceMB);
    assert.equal(all.recommendation.semiSpaceMB, 64);
  });

  it('a failed profiling run costs only its report: the setting keeps its figures and can be recommended', () => {
    const runs = withProfiling().map((r) => (r.purpose === 'profile' && r.semiSpaceMB === 64 ? { ...r, status: 'invalid' as const, reason: 'exited with code 1', load: null, gc: null } : r));
    const out = summarizeSweep(runs, config(SIZES, 6), ENV);
    assert.equal(out.recommendation.semiSpaceMB, 64);
    assert.ok(out.warnings.some((w) => /^The profiling run at 64 MB failed \(exited with code 1\)/.test(w)), out.warnings.join('\n'));
    assert.ok(!out.warnings.some((w) => /^64 MB: \d+ of \d+ runs invalid/.test(w)));
  });
});

describe('rounds in two pretenuring regimes', () => {
  const tenured = { sitesTenured: 1, sitesEndedTenured: 1, sitesWeighed: 12 };
  const young = { sitesTenured: 0, sitesEndedTenured: 0, sitesWeighed: 12 };

  it('a size whose rounds disagree is said, not compared, and not recommended', () => {
    const runs = sweepRuns(SECTION8, SIZES, 6).map((r) => ({ ...r, pretenuring: r.semiSpaceMB === 64 && r.round % 2 === 0 ? tenured : young }));
    const out = summarizeSweep(runs, config(SIZES, 6), ENV);
    const at64 = out.results.find((r) => r.semiSpaceMB === 64)!;
    assert.deepEqual(at64.vsBaseline, {});
    assert.notEqual(out.recommendation.semiSpaceMB, 64);
    assert.ok(out.warnings.some((w) => /^64 MB: V8 tenured an allocation site in 3 rounds and in none in 3: its rounds ran in two GC regimes/.test(w)), out.warnings.join('\n'));
    assert.notDeepEqual(out.results.find((r) => r.semiSpaceMB === 32)!.vsBaseline, {}, 'the other sizes are still compared');
  });

  it('rounds that agree (all tenured, or none) are compared as before', () => {
    const runs = sweepRuns(SECTION8, SIZES, 6).map((r) => ({ ...r, pretenuring: r.semiSpaceMB === 16 ? tenured : young }));
    const out = summarizeSweep(runs, config(SIZES, 6), ENV);
    assert.equal(out.recommendation.semiSpaceMB, 64);
    assert.ok(!out.warnings.some((w) => /two GC regimes/.test(w)));
  });
});
