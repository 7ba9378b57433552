/** The CLI's plain-text table: headers, rows, benchstat-style "~", the recommendation line. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatChange, formatP, formatSize, formatSizes } from '../../../src/core/sweep/recommend';
import { summarizeSweep } from '../../../src/core/sweep/summarizeSweep';
import { SWEEP_TABLE_HEADERS, formatSweepTable } from '../../../src/core/sweep/sweepTable';
import { ENV, SECTION8, SIZES, config, sweepRuns } from './sweepFixtures';

function table(rounds: number, patch?: Parameters<typeof sweepRuns>[3], noise?: number[]) {
  const cfg = config(SIZES, rounds);
  const summary = summarizeSweep(sweepRuns(SECTION8, SIZES, rounds, patch, noise), cfg, ENV);
  return { text: formatSweepTable({ ...summary, config: cfg }), summary };
}

/** The row of a setting, split on runs of 2+ spaces. */
function rowOf(text: string, mb: number): string[] {
  const line = text.split('\n').find((l) => l.startsWith(`${mb} `) || l.startsWith(`${mb}  `));
  assert.ok(line, `no row for ${mb} MB`);
  return line.split(/ {2,}/);
}

describe('formatSweepTable', () => {
  const { text } = table(6);

  it('has headers that say what each column counts', () => {
    const header = text.split('\n')[0]!;
    for (const h of SWEEP_TABLE_HEADERS) assert.ok(header.includes(h), `missing header ${h}`);
    for (const h of ['semi-space MB (effective)', 'valid runs', 'req/s median', 'p50/p99 ms', 'scavenges /1k req', 'GC ms /1k req', 'mean scavenge ms', 'GC % wall', 'GC % CPU', 'peak RSS MB', 'vs base']) {
      assert.ok(header.includes(h), h);
    }
    assert.match(text, /\[a\.\.b\]: 95% CI of the median with 6\+ valid runs, else min\.\.max/);
    assert.match(text, /~ = not significant/);
  });

  it('one row per setting, columns aligned, figures in place', () => {
    const lines = text.split('\n');
    assert.match(lines[1]!, /^-+( {2}-+){11}$/);
    const widths = lines[1]!.length;
    for (const mb of SIZES) assert.equal(rowOf(text, mb).length, 12);
    assert.ok(lines.slice(2, 7).every((l) => l.length === widths), 'rows as wide as the rule');
    assert.deepEqual(rowOf(text, 16), ['16', '6/6', '3635 [3490..3780]', '4/24', '11.5', '36.9 [33.9..39.9]', '3.22', '13.7', '23.4', '359', 'baseline', 'baseline']);
    const r64 = rowOf(text, 64);
    assert.equal(r64[5], '19.1 [17.6..20.6]');
    assert.equal(r64[10], '−48% (p < 0.01)');
    assert.equal(r64[11], '+9% (p < 0.01)');
  });

  it('ends with the recommendation line', () => {
    assert.match(text, /\nRecommendation: --max-semi-space-size=64\. 64 MB: GC ms per 1k requests −48%.*128\/256 MB: no significant further gain/);
    assert.doesNotMatch(text, /Warnings:/);
  });

  it('prints "~" when not significant (3 rounds: p = 0.10 at best), and the warnings', () => {
    const { text: t3 } = table(3, undefined, [-0.04, 0, 0.04]);
    const r64 = rowOf(t3, 64);
    assert.equal(r64[10], '~ (p = 0.10)');
    assert.equal(r64[11], '~ (p = 0.10)');
    assert.equal(r64[1], '3/3');
    assert.match(r64[2]!, /^\d+ \[\d+\.\.\d+\]$/);
    assert.match(t3, /Recommendation: --max-semi-space-size=64\. Tentative \(3 rounds, no test possible\):/);
    assert.match(t3, /Warnings:\n {2}- 3 rounds: enough to see big differences/);
  });

  it('shows the effective size, invalid runs and lost requests', () => {
    const { text: t } = table(6, (r) => {
      if (r.semiSpaceMB === 256) return { ...r, effectiveSemiSpaceMB: 128 };
      if (r.semiSpaceMB === 32 && r.round === 0) return { ...r, status: 'invalid', reason: 'exited with code 1' };
      if (r.semiSpaceMB === 64 && r.round === 1) return { ...r, load: { ...r.load!, non2xx: 4 } };
      return r;
    });
    assert.equal(rowOf(t, 256)[0], '256 (eff. 128)');
    assert.equal(rowOf(t, 32)[1], '5/6');
    assert.equal(rowOf(t, 64)[1], '6/6 *');
    assert.match(t, /\* a run lost requests/);
    assert.match(t, /Recommendation: --max-semi-space-size=128\./);
  });

  it('keep the default prints the reason alone; no rows → a placeholder', () => {
    const t = formatSweepTable({
      results: [],
      recommendation: { flag: 'max-semi-space-size', value: null, semiSpaceMB: null, metric: 'gcMsPer1k', reason: 'No recommendation: the sweep has no settings.' },
      warnings: [],
      config: config([], 0),
    });
    assert.match(t, /\(no settings\)/);
    assert.match(t, /\nRecommendation: No recommendation: the sweep has no settings\.\n$/);
  });
});

describe('formatting helpers', () => {
  it('signed percentages, p with two decimals, sizes', () => {
    assert.equal(formatChange(0.52), '−48%');
    assert.equal(formatChange(1.09), '+9%');
    assert.equal(formatChange(1.002), '±0%');
    assert.equal(formatChange(null), 'n/a');
    assert.equal(formatP(0.0286), 'p = 0.03');
    assert.equal(formatP(0.1), 'p = 0.10');
    assert.equal(formatP(0.0022), 'p < 0.01');
    assert.equal(formatP(0.0496), 'p = 0.050'); // not rounded up to the threshold
    assert.equal(formatP(null), 'no test');
    assert.equal(formatSize(64), '64 MB');
    assert.equal(formatSizes([128, 256]), '128/256 MB');
  });
});
