import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PretenuringCollector, isPretenuringLine, parseSiteWeighing } from '../../../src/core/gc/pretenuring';
import { parseTraceGcLine } from '../../../src/core/gc/traceGcLine';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'gc');

/** Reads a fixture as a run would: pretenuring lines to the collector, GC lines date them. */
function collect(name: string) {
  const lines = readFileSync(join(FIXTURES, name), 'utf8').split('\n').filter((l) => l !== '');
  const collector = new PretenuringCollector();
  for (const line of lines) {
    if (collector.addLine(line)) continue;
    const gc = parseTraceGcLine(line);
    if (gc) collector.noteGc(gc.pid, gc.isolate, gc.timeMs);
  }
  return { lines, summary: collector.summary() };
}

/** The oracle, written apart from the reader: each site's first "=> tenure" and the time of the next GC line. */
function firstTenures(lines: string[]): Map<string, number | null> {
  const out = new Map<string, number | null>();
  let pending: string[] = [];
  for (const line of lines) {
    const site = / AllocationSite\((0x[0-9a-f]+)\): .* (?:undecided|don't tenure|maybe tenure) => tenure$/.exec(line);
    if (site && !out.has(site[1]!)) {
      out.set(site[1]!, null);
      pending.push(site[1]!);
    }
    const gc = /^\[\d+:0x[0-9a-f]+\]\s+(\d+) ms: /.exec(line);
    if (gc) {
      for (const s of pending) out.set(s, Number(gc[1]));
      pending = [];
    }
  }
  return out;
}

describe('pretenuring decisions (--trace-pretenuring-statistics)', () => {
  for (const name of ['pretenuring-node20.txt', 'pretenuring-node24.txt', 'pretenuring-node26.txt']) {
    it(`${name}: every line read, each tenured site with the time of the scavenge that tenured it`, () => {
      const { lines, summary } = collect(name);
      const printed = lines.filter((l) => / pretenuring: /.test(l)).length;
      assert.ok(printed > 0);
      assert.equal(summary.linesSeen, printed);
      assert.equal(summary.linesRead, printed);
      const expected = firstTenures(lines);
      assert.ok(expected.size > 0, 'the fixture has a tenured site');
      assert.equal(summary.sitesTenured, expected.size);
      for (const site of summary.tenured) {
        assert.equal(site.firstTenuredMs, expected.get(site.site), site.site);
        assert.ok(site.survivalAtTenure >= 0.85, `tenured at ${site.survivalAtTenure}`);
      }
      const weighed = new Set(lines.map((l) => / AllocationSite\((0x[0-9a-f]+)\)/.exec(l)?.[1]).filter(Boolean));
      assert.equal(summary.sitesWeighed, weighed.size);
    });
  }

  it('a site V8 sends back without a line of its own is counted as untenured once', () => {
    const c = new PretenuringCollector();
    const at = (s: string) => `[7:0x1a] pretenuring: AllocationSite(0xab): (created, found, ratio) ${s}`;
    c.addLine(at('(3000, 3000, 1.000000) undecided => tenure'));
    c.addLine(at('(7550, 1550, 0.205298) undecided => don\'t tenure'));
    c.addLine(at('(200, 190, 0.950000) don\'t tenure => tenure'));
    const s = c.summary();
    assert.deepEqual([s.sitesTenured, s.sitesEndedTenured, s.untenured, s.tenured[0]!.timesTenured], [1, 1, 1, 2]);
  });

  it('tells its lines from app lines and from GC lines', () => {
    assert.equal(isPretenuringLine('[12:0x2a] pretenuring: deopt_maybe_tenured=0 visited_sites=1'), true);
    assert.equal(isPretenuringLine('[INFO] pretenuring: fake'), false);
    assert.equal(isPretenuringLine('pretenuring: AllocationSite(0x1)'), false);
    assert.equal(isPretenuringLine('[12:0x2a]    5 ms: Scavenge 1.0 (2.0) -> 0.5 (2.0) MB'), false);
    assert.equal(parseSiteWeighing('[12:0x2a] pretenuring: AllocationSite(0x1): (created, found, ratio) (1, 2'), null);
  });
});
