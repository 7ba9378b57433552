/**
 * Sweeping flags other than the semi-space: the primary metric per flag, failed requests that
 * disqualify however fast, the flag checks, the form, Apply, and sweep.json written before flags.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { launchJsonWithFlag, packageJsonWithFlag } from '../../../src/core/sweep/applySemiSpace';
import { DEFAULT_LAB_FORM, labFormFromSaved } from '../../../src/shared/labForm';
import { normalizeSweepResult, summarizeSweep } from '../../../src/core/sweep/summarizeSweep';
import { flagValueText, parseSweepFlagName, validateSweepFlag } from '../../../src/core/sweep/sweepFlagCheck';
import { formatSetting, formatSettings, formatValueWithUnit, primaryMetricOf, sweepFlagInfo } from '../../../src/shared/sweepFlags';
import { estimateSweepSeconds, parseValues, sweepConfigFromForm } from '../../../src/core/sweep/sweepForm';
import { runDirName, targetArgs } from '../../../src/core/sweep/sweepRun';
import { formatSweepTable, sweepTableHeaders } from '../../../src/core/sweep/sweepTable';
import { SEMI_SPACE_FLAG, normalizeSweepConfig, runValue, sweepFlag, sweepValues, type SweepResult, type SweepRun, type SweepTarget } from '../../../src/shared/model/sweep';
import type { NodeRuntime } from '../../../src/core/flags/nodeRuntime';
import { parseV8Options } from '../../../src/core/flags/optionLists';
import { npmScriptWithNodeFlag, withNodeFlag } from '../../../src/core/targets/nodeCommand';
import { UserError } from '../../../src/core/util/errors';
import { parseFromLab, parseLabForm } from '../../../src/shared/labProtocol';
import { ENV, SECTION8, SIZES, config, flagConfig, sweepRuns, type SettingShape } from './sweepFixtures';

const OLD = 'max-old-space-size';
const OLD_VALUES = [256, 512, 1024, 2048];

/**
 * An old-space sweep: Mark-Compact ms per 1k requests fall steeply as the limit grows and level off
 * from 1024 MB; all-GC ms per 1k barely moves (scavenges dominate it); RSS grows with the limit.
 */
const OLD_SHAPES: Record<number, SettingShape> = {
  256: { ...SECTION8[16]!, gcMsPer1k: 30, markCompactsPer1k: 4, markCompactMsPer1k: 12, peakRssMB: 240 },
  512: { ...SECTION8[16]!, gcMsPer1k: 29.5, markCompactsPer1k: 1.5, markCompactMsPer1k: 5, peakRssMB: 420 },
  1024: { ...SECTION8[16]!, gcMsPer1k: 29.4, markCompactsPer1k: 0.5, markCompactMsPer1k: 2, peakRssMB: 700 },
  2048: { ...SECTION8[16]!, gcMsPer1k: 29.3, markCompactsPer1k: 0.45, markCompactMsPer1k: 1.9, peakRssMB: 1100 },
};

describe('an old-space sweep is judged on Mark-Compact ms per 1k requests', () => {
  const cfg = flagConfig(OLD, OLD_VALUES, 6);
  const runs = sweepRuns(OLD_SHAPES, OLD_VALUES, 6, undefined, undefined, OLD);
  const { results, recommendation, warnings } = summarizeSweep(runs, cfg, ENV);

  it('groups by the flag value, with Mark-Compact and failed-request medians', () => {
    assert.deepEqual(results.map((r) => r.value), OLD_VALUES);
    for (const r of results) {
      assert.equal(r.flag, OLD);
      assert.equal(r.semiSpaceMB, null, 'semiSpaceMB is only the semi-space');
      assert.ok(Math.abs(r.median.markCompactMsPer1k! - OLD_SHAPES[r.value]!.markCompactMsPer1k!) < 1e-9);
      assert.ok(r.median.markCompactsPer1k! > 0);
      assert.equal(r.median.failedRequests, 0);
      assert.equal(r.failedRequests, 0);
    }
    assert.deepEqual(results.map((r) => r.baseline), [true, false, false, false]);
    assert.equal(results[1]!.vsBaseline.markCompactMsPer1k!.significant, true);
    assert.deepEqual(warnings, []);
  });

  it('recommends 1024 MB (the smallest within 10% of the best), the reason names the flag and shows peak RSS', () => {
    assert.equal(recommendation.flag, OLD);
    assert.equal(recommendation.metric, 'markCompactMsPer1k');
    assert.equal(recommendation.value, 1024);
    assert.equal(recommendation.semiSpaceMB, null, 'never applied as a semi-space size');
    assert.match(recommendation.reason, /^--max-old-space-size=1024: Mark-Compact ms per 1k requests −83% vs --max-old-space-size=256 \(p < 0\.01\), req\/s ±0% \(p = \d\.\d\d, within noise\), peak RSS 700 MB \(\+192%\)/);
    assert.match(recommendation.reason, /--max-old-space-size=2048: no significant further gain, \+358% peak RSS\.$/);
  });

  it('the same runs swept as a young-generation flag are judged on all GC: nothing to recommend', () => {
    const young = summarizeSweep(sweepRuns(OLD_SHAPES, OLD_VALUES, 6, undefined, undefined, 'semi-space-growth-factor'), flagConfig('semi-space-growth-factor', OLD_VALUES, 6), ENV);
    assert.equal(young.recommendation.metric, 'gcMsPer1k');
    assert.equal(young.recommendation.value, null);
    assert.match(young.recommendation.reason, /^Keep the baseline, --semi-space-growth-factor=256: no detectable difference; no setting has GC ms per 1k requests significantly lower than --semi-space-growth-factor=256's/);
  });

  it('the table shows the old-space columns, peak RSS next to them, and the recommendation with its flag', () => {
    const text = formatSweepTable({ results, recommendation, warnings, config: cfg });
    const headers = sweepTableHeaders({ results, recommendation, warnings, config: cfg });
    assert.deepEqual(headers.slice(0, 8), ['--max-old-space-size MB', 'valid runs', 'failed req', 'req/s median [spread]', 'p50/p99 ms', 'Mark-Compacts /1k req', 'MC ms /1k req [spread]', 'peak RSS MB']);
    assert.ok(headers.includes('MC ms/1k vs base'));
    const row = text.split('\n').find((l) => l.startsWith('1024 '))!.split(/ {2,}/);
    assert.equal(row[2], '0');
    assert.equal(row[6], '2.00 [1.84..2.16]');
    assert.equal(row[7], '700');
    assert.match(text, /\nRecommendation: --max-old-space-size=1024\. --max-old-space-size=1024: Mark-Compact ms per 1k/);
    assert.match(text, /vs base: change of the median vs --max-old-space-size=256/);
  });
});

describe('a setting that loses requests is never recommended, however fast', () => {
  // 2048 MB made by far the fastest on the primary metric…
  const shapes: Record<number, SettingShape> = { ...OLD_SHAPES, 2048: { ...OLD_SHAPES[2048]!, markCompactMsPer1k: 0.2, rps: 4500 } };

  it('an old-space sweep where the fastest value loses requests in one run ("ok" figures, as an older engine kept them)', () => {
    const runs = sweepRuns(shapes, OLD_VALUES, 6, (r) => (r.value === 2048 && r.round === 3 ? { ...r, load: { ...r.load!, timeouts: 2, non2xx: 1 } } : r), undefined, OLD);
    const { results, recommendation, warnings } = summarizeSweep(runs, flagConfig(OLD, OLD_VALUES, 6), ENV);
    const at2048 = results.find((r) => r.value === 2048)!;
    assert.equal(at2048.failedRequests, 3);
    assert.ok(at2048.median.markCompactMsPer1k! < results.find((r) => r.value === 1024)!.median.markCompactMsPer1k!, 'it is the fastest');
    assert.notEqual(recommendation.value, 2048);
    assert.equal(recommendation.value, 1024);
    assert.match(recommendation.reason, /--max-old-space-size=2048 would otherwise have won \(Mark-Compact ms per 1k requests −98%\) but lost requests in 1 of 6 runs \(2 timeouts, 1 non-2xx answer\): a setting that loses requests or runs is never recommended\./);
    assert.ok(warnings.some((w) => w.startsWith('--max-old-space-size=2048: 1 of 6 runs lost requests (3 errors, timeouts or non-2xx answers)')));
    const text = formatSweepTable({ results, recommendation, warnings, config: flagConfig(OLD, OLD_VALUES, 6) });
    assert.equal(text.split('\n').find((l) => l.startsWith('2048 '))!.split(/ {2,}/)[2], '3');
  });

  it('…and where the engine marked those runs invalid (what it does with any failed request): failed requests still counted per setting', () => {
    const runs = sweepRuns(
      shapes,
      OLD_VALUES,
      6,
      (r) => (r.value === 2048 && r.round % 2 === 0 ? { ...r, status: 'invalid', reason: '5 of 90,000 requests failed: 5 timeouts', load: { ...r.load!, timeouts: 5 } } : r),
      undefined,
      OLD,
    );
    const { results, recommendation } = summarizeSweep(runs, flagConfig(OLD, OLD_VALUES, 6), ENV);
    const at2048 = results.find((r) => r.value === 2048)!;
    assert.equal(at2048.validRuns, 3);
    assert.equal(at2048.failedRequests, 15);
    assert.equal(at2048.median.failedRequests, 2.5, 'the median over every run with load figures, invalid ones included');
    assert.equal(recommendation.value, 1024);
    assert.match(recommendation.reason, /--max-old-space-size=2048 would otherwise have won .* had 3 invalid runs of 6 \(5 of 90,000 requests failed: 5 timeouts\)/);
  });

  it('a semi-space sweep with a lossy run shows the failed-requests column', () => {
    const runs = sweepRuns(SECTION8, SIZES, 6, (r) => (r.value === 64 && r.round === 1 ? { ...r, load: { ...r.load!, errors: 7 } } : r));
    const summary = summarizeSweep(runs, config(SIZES, 6), ENV);
    const headers = sweepTableHeaders({ ...summary, config: config(SIZES, 6) });
    assert.deepEqual(headers.slice(0, 3), ['semi-space MB (effective)', 'valid runs', 'failed req']);
    assert.notEqual(summary.recommendation.value, 64);
  });

  it('a baseline with no valid run: the comparisons move to the next value, and say so', () => {
    const runs = sweepRuns(OLD_SHAPES, OLD_VALUES, 6, (r) => (r.value === 256 ? { ...r, status: 'invalid', reason: 'the target was killed by SIGABRT during the measurement', load: null, gc: null, markCompactMsPer1k: null, gcMsPer1k: null } : r), undefined, OLD);
    const { results, recommendation, warnings } = summarizeSweep(runs, flagConfig(OLD, OLD_VALUES, 6), ENV);
    assert.deepEqual(results.map((r) => r.baseline), [false, true, false, false]);
    assert.ok(warnings.includes('--max-old-space-size=256 had no valid run to compare with: the comparisons ("vs base") are against --max-old-space-size=512 instead.'));
    assert.equal(recommendation.value, 1024);
    assert.match(recommendation.reason, /vs --max-old-space-size=512/);
  });
});

describe('sweep.json written before flags', () => {
  /** What the lab wrote before flags: config.sizesMB only; runs and settings with semiSpaceMB only; no new figures. */
  function oldSweepJson(): SweepResult {
    const cfg = config(SIZES, 6);
    const runs = sweepRuns(SECTION8, SIZES, 6).map((r) => {
      const { flag: _f, value: _v, markCompactsPer1k: _a, markCompactMsPer1k: _b, failedRequests: _c, ...old } = r;
      return old as unknown as SweepRun;
    });
    const summary = summarizeSweep(runs, cfg, ENV);
    return JSON.parse(
      JSON.stringify({
        schemaVersion: 1,
        tool: { name: 'v8-lens', version: '0.1.0' },
        config: cfg,
        environment: ENV,
        startedAt: '2025-01-01T12:00:00.000Z',
        endedAt: '2025-01-01T12:30:00.000Z',
        status: 'finished',
        results: summary.results.map((s) => ({ semiSpaceMB: s.value, effectiveSemiSpaceMB: s.effectiveSemiSpaceMB, runs: s.runs, validRuns: s.validRuns, median: s.median, spread: s.spread, vsBaseline: s.vsBaseline })),
        recommendation: { semiSpaceMB: summary.recommendation.value, reason: summary.recommendation.reason },
        warnings: ['kept as written'],
      }),
    ) as SweepResult;
  }

  it('still summarises: runs keyed by semiSpaceMB, Mark-Compact figures derived from the window', () => {
    const old = oldSweepJson();
    assert.equal(old.config.flag, undefined);
    assert.equal(old.results[0]!.runs[0]!.value, undefined);
    assert.equal(sweepFlag(old.config), SEMI_SPACE_FLAG);
    assert.deepEqual(sweepValues(old.config), SIZES);
    const runs = old.results.flatMap((r) => r.runs);
    assert.equal(runValue(runs[0]!), runs[0]!.semiSpaceMB);
    const { results, recommendation } = summarizeSweep(runs, old.config, ENV);
    assert.deepEqual(results.map((r) => r.value), SIZES);
    assert.deepEqual(results.map((r) => r.semiSpaceMB), SIZES);
    assert.equal(recommendation.value, 64);
    assert.equal(recommendation.semiSpaceMB, 64);
    assert.equal(recommendation.metric, 'gcMsPer1k');
    assert.ok(results.every((r) => r.median.markCompactsPer1k !== null && r.median.markCompactsPer1k > 0), 'derived from gc.markCompacts / load.requests');
    assert.ok(results.every((r) => r.median.failedRequests === 0 && r.failedRequests === 0));
  });

  it('normalizeSweepResult fills the new fields; the table reads the old file as it is', () => {
    const old = oldSweepJson();
    const text = formatSweepTable(old);
    assert.match(text, /^semi-space MB \(effective\)/);
    assert.match(text, /\nRecommendation: --max-semi-space-size=64\. 64 MB: GC ms per 1k requests −48%/);
    const now = normalizeSweepResult(old);
    assert.equal(now.config.flag, SEMI_SPACE_FLAG);
    assert.deepEqual(now.config.values, SIZES);
    assert.deepEqual(now.config.sizesMB, SIZES);
    assert.ok(now.results.every((r) => r.flag === SEMI_SPACE_FLAG && r.value === r.semiSpaceMB && typeof r.failedRequests === 'number'));
    assert.ok(now.results.flatMap((r) => r.runs).every((r) => r.value === r.semiSpaceMB && r.markCompactsPer1k !== null && r.failedRequests === 0));
    assert.deepEqual([now.recommendation.value, now.recommendation.semiSpaceMB, now.recommendation.flag], [64, 64, SEMI_SPACE_FLAG]);
    assert.equal(now.recommendation.reason, old.recommendation.reason, 'the same verdict');
    assert.deepEqual(now.warnings, ['kept as written']);
    assert.equal(normalizeSweepResult(now), now, 'a current file comes back as it is');
  });

  it('normalizeSweepConfig: values win over sizesMB, sizesMB only for the semi-space', () => {
    assert.deepEqual(normalizeSweepConfig(config([16, 32], 1)).values, [16, 32]);
    const old = normalizeSweepConfig(flagConfig(OLD, [64, 512], 1, { sizesMB: [1, 2] }));
    assert.deepEqual([old.flag, old.values, old.sizesMB], [OLD, [64, 512], []]);
    assert.equal(sweepFlag({ flag: '--max_old_space_size' }), OLD);
  });
});

describe('flag checks against the target Node', () => {
  const v8Text = [
    '  --max-old-space-size (max size of the old space (in Mbytes))',
    '        type: size_t  default: --max-old-space-size=0',
    '  --max-semi-space-size (max size of a semi-space (in MBytes), the new space consists of two semi-spaces)',
    '        type: size_t  default: --max-semi-space-size=0',
    '  --semi-space-growth-factor (factor by which to grow the new space)',
    '        type: int  default: --semi-space-growth-factor=2',
    '  --trace-gc (print one trace line following each garbage collection)',
    '        type: bool  default: --no-trace-gc',
    '  --gc-fake-mmap (Fake mmap for deterministic gc)',
    '        type: string  default: --gc-fake-mmap="/tmp/__v8_gc__"',
    '  --scavenge-task-trigger (scavenge task trigger in percent of the current heap limit)',
    '        type: float  default: --scavenge-task-trigger=80',
  ].join('\n');
  const runtime: NodeRuntime = {
    command: 'node',
    execPath: '/usr/bin/node',
    version: 'v22.1.0',
    major: 22,
    v8Version: '12.4',
    v8Flags: parseV8Options(v8Text),
    nodeFlags: new Set(['v8-pool-size', 'title', 'max-http-header-size', 'cpu-prof-interval']),
    allowedInNodeOptions: new Set(['v8-pool-size', 'title', 'max-http-header-size']),
  };
  const refuses = (flag: string, values: number[], message: RegExp) =>
    assert.throws(() => validateSweepFlag(flag, values, runtime), (err: unknown) => err instanceof UserError && err.exitCode === 2 && message.test(err.message), flag);

  it('accepts the on/off flags it knows with the values 1 and 0 only, when the Node has them as booleans', () => {
    const withPretenuring: NodeRuntime = {
      ...runtime,
      v8Flags: parseV8Options(`${v8Text}\n  --allocation-site-pretenuring (pretenure with allocation sites)\n        type: bool  default: --allocation-site-pretenuring`),
    };
    assert.equal(validateSweepFlag('allocation-site-pretenuring', [1, 0], withPretenuring), 'v8');
    assert.throws(() => validateSweepFlag('allocation-site-pretenuring', [1, 2], withPretenuring), /its values are 1 \(--allocation-site-pretenuring\) and 0 \(--no-allocation-site-pretenuring\), not 2/);
    assert.throws(() => validateSweepFlag('allocation-site-pretenuring', [1, 0], runtime), /is not an on\/off V8 flag/);
    // Any other boolean flag stays refused.
    refuses('trace-gc', [1, 0], /on\/off flag/);
  });

  it('accepts numeric V8 flags and the numeric Node options', () => {
    assert.equal(validateSweepFlag(OLD, [64, 512], runtime), 'v8');
    assert.equal(validateSweepFlag('scavenge-task-trigger', [50, 80.5], runtime), 'v8');
    assert.equal(validateSweepFlag('v8-pool-size', [2, 4], runtime), 'node');
  });

  it('names the flag in every refusal, with the closest known name for a typo', () => {
    refuses('max-old-spce-size', [64], /^unknown flag --max-old-spce-size: Node v22\.1\.0 \(V8 12\.4\) has no such option; did you mean --max-old-space-size\?$/);
    refuses('max-semi-space-sise', [64], /did you mean --max-semi-space-size\?/);
    refuses('trace-gc', [1], /^--trace-gc is an on\/off flag in Node v22\.1\.0: a sweep compares values of a flag that takes a number$/);
    refuses('gc-fake-mmap', [1], /^--gc-fake-mmap is a flag that takes text in Node v22\.1\.0/);
    refuses('semi-space-growth-factor', [2, 2.5], /^--semi-space-growth-factor=2\.5: a whole number is expected$/);
    refuses(OLD, [-1], /^--max-old-space-size=-1: a whole number is expected$/);
    refuses('title', [1], /^--title is a Node option that V8 Lens does not know to take a number/);
    refuses('v8-pool-size', [1.5], /^--v8-pool-size=1\.5: a whole number ≥ 0 is expected$/);
    refuses('cpu-prof-interval', [100], /^--cpu-prof-interval is set by V8 Lens itself/);
  });

  it('spelling: dashes and underscores folded; a value, spaces or the "no-" form refused', () => {
    assert.equal(parseSweepFlagName('--max_old_space_size'), OLD);
    assert.equal(parseSweepFlagName('  max-old-space-size '), OLD);
    assert.throws(() => parseSweepFlagName(''), /give the flag to sweep/);
    assert.throws(() => parseSweepFlagName('--max-old-space-size=512'), /give the flag without a value \(--max-old-space-size\) and its values apart/);
    assert.throws(() => parseSweepFlagName('max old'), /is not a flag name/);
    assert.throws(() => parseSweepFlagName('no-opt'), /"off" form of an on\/off flag/);
    assert.equal(flagValueText(512), '512');
    assert.equal(flagValueText(1.5), '1.5');
  });
});

describe('the command line of a run', () => {
  // Each run keeps its CPU profile in its own folder (the run's cwd-relative layout here).
  const CPU_PROFILE = ['--cpu-prof', '--cpu-prof-dir=cpu', '--cpu-prof-interval=1000'];
  const base = flagConfig(OLD, [64, 512], 1, { target: { label: 's', node: 'node', script: 's.js', args: ['--port', '1'], cwd: '/', env: {}, nodeArgs: ['--max-semi-space-size=32'] } });

  it('passes --<flag>=<value>; the pin only ever for the semi-space', () => {
    const traced = ['--trace-gc', '--trace-pretenuring-statistics'];
    // A measured run's agent is the lab's own, beside the full one (preload/labAgent.ts).
    assert.deepEqual(targetArgs(base, 512, '/p.js', '/s.js'), ['--max-semi-space-size=32', ...traced, '--max-old-space-size=512', '--require', '/lab-preload.js', '/s.js', '--port', '1']);
    assert.deepEqual(targetArgs({ ...base, pinMinSemiSpace: true }, 512, '/p.js', '/s.js').filter((a) => a.startsWith('--min')), []);
    assert.deepEqual(targetArgs(config([16], 1, { pinMinSemiSpace: true }), 16, '/p.js', '/s.js').slice(0, 4), [...traced, '--max-semi-space-size=16', '--min-semi-space-size=16']);
  });

  it('profiles only in a profiling run: a measured run has the GC trace alone', () => {
    const profiled = targetArgs(base, 512, '/p.js', '/s.js', 'profile');
    // The profiling run's GC trace is V8's phases (the helper threads' GC time); a measured run's stays plain.
    assert.deepEqual(profiled, ['--max-semi-space-size=32', '--trace-gc-nvp', '--trace-pretenuring-statistics', '--max-old-space-size=512', ...CPU_PROFILE, '--require', '/p.js', '/s.js', '--port', '1']);
    const measured = targetArgs(base, 512, '/p.js', '/s.js', 'measure');
    assert.equal(measured.some((a) => a.startsWith('--cpu-prof')), false);
    assert.ok(measured.includes('--trace-gc') && !measured.includes('--trace-gc-nvp'));
  });

  it('runs an on/off flag as --<flag> and --no-<flag>, never --<flag>=0', () => {
    const pretenuring = flagConfig('allocation-site-pretenuring', [1, 0], 1);
    assert.ok(targetArgs(pretenuring, 1, '/p.js', '/s.js').includes('--allocation-site-pretenuring'));
    const off = targetArgs(pretenuring, 0, '/p.js', '/s.js');
    assert.ok(off.includes('--no-allocation-site-pretenuring'));
    assert.equal(off.some((a) => a.startsWith('--allocation-site-pretenuring=')), false);
    assert.equal(formatSetting('allocation-site-pretenuring', 0), '--no-allocation-site-pretenuring');
    assert.equal(formatSettings('allocation-site-pretenuring', [1, 0]), '--allocation-site-pretenuring / --no-allocation-site-pretenuring');
    assert.equal(formatValueWithUnit('allocation-site-pretenuring', 1), 'on');
    assert.equal(runDirName({ value: 0, round: 0, index: 1 }, 4, 'allocation-site-pretenuring'), 'runs/1-0-r0');
  });

  it('names run folders by value, "mb" for the flags in MB', () => {
    assert.equal(runDirName({ value: 512, round: 0, index: 3 }, 12, OLD), 'runs/03-512mb-r0');
    assert.equal(runDirName({ value: 4, round: 1, index: 1 }, 4, 'semi-space-growth-factor'), 'runs/1-4-r1');
    assert.equal(runDirName({ value: 16, round: 0, index: 0 }, 1), 'runs/0-16mb-r0');
  });
});

describe('flags: units, metric, texts', () => {
  it('knows the common flags and classifies others by name', () => {
    assert.equal(primaryMetricOf(SEMI_SPACE_FLAG), 'gcMsPer1k');
    assert.equal(primaryMetricOf(OLD), 'markCompactMsPer1k');
    assert.equal(primaryMetricOf('max-heap-size'), 'markCompactMsPer1k');
    assert.equal(primaryMetricOf('initial-old-space-size'), 'markCompactMsPer1k');
    assert.equal(primaryMetricOf('semi-space-growth-factor'), 'gcMsPer1k');
    assert.equal(primaryMetricOf('stack-size'), 'gcMsPer1k');
    assert.equal(sweepFlagInfo('semi-space-growth-factor').unit, '');
    assert.equal(sweepFlagInfo('initial-old-space-size').unit, 'MB');
    assert.equal(formatSetting(SEMI_SPACE_FLAG, 64), '64 MB');
    assert.equal(formatSetting(OLD, 512), '--max-old-space-size=512');
    assert.equal(formatSettings(OLD, [1024, 2048]), '--max-old-space-size=1024/2048');
    assert.equal(formatValueWithUnit(OLD, 512), '512 MB');
    assert.equal(formatValueWithUnit('semi-space-growth-factor', 4), '4');
  });
});

describe('the lab form with a flag', () => {
  const target: SweepTarget = { label: 'server.js', node: 'node', script: '/ws/server.js', args: [], cwd: '/ws', env: {}, nodeArgs: [] };

  it('builds an old-space config: values in MB, no semi-space sizes, never pinned', () => {
    const cfg = sweepConfigFromForm({ ...DEFAULT_LAB_FORM, flag: '--max_old_space_size', values: '256, 512MB 1024', pinMin: true }, target);
    assert.equal(cfg.flag, OLD);
    assert.deepEqual(cfg.values, [256, 512, 1024]);
    assert.deepEqual(cfg.sizesMB, []);
    assert.equal(cfg.pinMinSemiSpace, false);
    assert.equal(estimateSweepSeconds(cfg), (3 * 3 + 3) * 18, "3 values × 3 rounds, and one profiling run per value");
    assert.equal(estimateSweepSeconds({ ...cfg, profileRounds: false }), 3 * 3 * 18);
    const semi = sweepConfigFromForm({ ...DEFAULT_LAB_FORM, pinMin: true }, target);
    assert.deepEqual([semi.flag, semi.values, semi.sizesMB, semi.pinMinSemiSpace], [SEMI_SPACE_FLAG, [16, 32, 64, 128, 256], [16, 32, 64, 128, 256], true]);
  });

  it('values per flag: whole MB for sizes, any number for factors; errors name the flag', () => {
    assert.deepEqual(parseValues('2, 4 8', 'semi-space-growth-factor'), [2, 4, 8]);
    assert.deepEqual(parseValues('0.5 1.5', 'scavenge-task-trigger'), [0.5, 1.5]);
    assert.throws(() => parseValues('256, 1.5', OLD), /--max-old-space-size value "1\.5" must be a whole number of MB from 1 to 65536/);
    assert.throws(() => parseValues('2, x', 'semi-space-growth-factor'), /--semi-space-growth-factor value "x" is not a number/);
    assert.throws(() => parseValues('512, 512', OLD), /--max-old-space-size=512 is listed twice/);
    assert.throws(() => parseValues('', OLD), /give at least one value of --max-old-space-size, e\.g\. 256, 512, 1024, 2048/);
    assert.throws(() => sweepConfigFromForm({ ...DEFAULT_LAB_FORM, flag: '' }, target), /give the flag to sweep/);
    assert.throws(() => sweepConfigFromForm({ ...DEFAULT_LAB_FORM, flag: 'max-old-space-size=512' }, target), /without a value/);
  });

  it('reads a form saved before flags (sizes, no flag) as a semi-space sweep', () => {
    const saved = { ...DEFAULT_LAB_FORM, flag: undefined, values: undefined, sizes: '8, 32', rounds: 5 };
    const form = labFormFromSaved(saved);
    assert.equal(form.flag, SEMI_SPACE_FLAG);
    assert.equal(form.values, '8, 32');
    assert.equal(form.rounds, 5);
    assert.equal('sizes' in form, false);
    assert.deepEqual(labFormFromSaved(undefined), DEFAULT_LAB_FORM);
    const parsed = parseLabForm(saved);
    assert.ok(parsed);
    assert.deepEqual([parsed.flag, parsed.values], [SEMI_SPACE_FLAG, '8, 32']);
    assert.deepEqual(parseFromLab({ type: 'apply', value: 512 }), { type: 'apply', value: 512 });
    assert.deepEqual(parseFromLab({ type: 'apply', semiSpaceMB: 64 }), { type: 'apply', value: 64 }, 'an older webview');
    assert.equal(parseFromLab({ type: 'apply', value: 'x' }), null);
  });
});

describe('Apply with any flag', () => {
  it('replaces an earlier value in either spelling, or adds it', () => {
    assert.deepEqual(withNodeFlag(['--inspect', '--max_old_space_size', '64'], OLD, 512), ['--inspect', '--max-old-space-size=512']);
    assert.deepEqual(withNodeFlag(['--max-semi-space-size=16'], OLD, 512), ['--max-semi-space-size=16', '--max-old-space-size=512']);
    assert.equal(npmScriptWithNodeFlag('node --max-old-space-size=64 server.js', OLD, 512), 'node --max-old-space-size=512 server.js');
    const launch = '{\n  "configurations": [\n    { "type": "node", "request": "launch", "name": "API", "program": "server.js" }\n  ]\n}\n';
    assert.match(launchJsonWithFlag(launch, 'API', OLD, 1024), /"runtimeArgs": \[\s*"--max-old-space-size=1024"\s*\]/);
    const pkg = '{\n  "scripts": {\n    "dev": "nodemon server.js"\n  }\n}\n';
    assert.throws(() => packageJsonWithFlag(pkg, 'dev', OLD, 1024), /add --max-old-space-size=1024 to NODE_OPTIONS/);
  });
});
