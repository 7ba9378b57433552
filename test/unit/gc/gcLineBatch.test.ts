/**
 * V8's lines queued and parsed in batches (gcLineBatch.ts) give the figures the collector gives when
 * fed the same lines one by one, on real traces of Node 20, 24 and 26 (pretenuring decisions among them).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { GcLineBatch } from '../../../src/core/gc/gcLineBatch';
import { GcTraceCollector } from '../../../src/core/gc/gcTraceCollector';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'gc');
const linesOf = (file: string) => readFileSync(join(FIXTURES, file), 'utf8').split('\n').filter((l) => l !== '');

function figures(c: GcTraceCollector) {
  return { events: c.events, unparsed: c.unparsedLines, raw: c.rawCounts(), counts: c.countsByType(), pause: c.totalPauseMs, isolates: c.tallyByIsolate(), pretenuring: c.pretenuring.summary() };
}

describe('GcLineBatch', () => {
  for (const file of ['node20.txt', 'node24-nvp.txt', 'node26-churn.txt', 'pretenuring-node24.txt']) {
    it(`${file}: the same figures as line by line, at any batch size`, () => {
      const lines = linesOf(file);
      const direct = new GcTraceCollector();
      for (const line of lines) direct.addLine(line);
      const expected = figures(direct);
      assert.ok(expected.events.length > 5, `${file} has events`);
      for (const limit of [1, 7, 4096]) {
        const batch = new GcLineBatch(new GcTraceCollector(), limit);
        for (const line of lines) batch.add(line);
        assert.deepEqual(figures(batch.parsed()), expected, `batches of ${limit}`);
      }
    });
  }

  it('parses nothing until a figure is asked for or the limit is reached', () => {
    const lines = linesOf('node20.txt').filter((l) => / ms: Scavenge /.test(l));
    const collector = new GcTraceCollector();
    const batch = new GcLineBatch(collector, 10);
    for (const line of lines.slice(0, 9)) batch.add(line);
    assert.equal(collector.table.length, 0, 'nine lines wait');
    batch.add(lines[9]!);
    assert.equal(collector.table.length, 10, 'the tenth parses the batch');
    batch.add(lines[10]!);
    assert.equal(collector.table.length, 10);
    assert.equal(batch.parsed().table.length, 11, 'asked for, the rest is parsed');
  });
});
