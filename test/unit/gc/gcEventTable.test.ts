/**
 * The column store gives back each event as the line's own parser reads it (objects, and rows over
 * the columns), through growth past its first capacity, for every recorded log of Node 18–26 in
 * both the --trace-gc and the --trace-gc-nvp form.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { classifyStdoutLine } from '../../../src/core/gc/classifyStdoutLine';
import type { GcEvent } from '../../../src/core/gc/gcEvent';
import { GcTraceCollector } from '../../../src/core/gc/gcTraceCollector';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'gc');
const LOGS = readdirSync(FIXTURES).filter((f) => f.endsWith('.txt'));

/** Every field a GcEvent has, read through its getters (a row's are not its own properties). */
function fields(e: GcEvent): Record<string, unknown> {
  const out: Record<string, unknown> = {
    pid: e.pid, isolate: e.isolate, timeMs: e.timeMs, type: e.type, interleaved: e.interleaved, reduce: e.reduce, heapBeforeMB: e.heapBeforeMB,
    committedBeforeMB: e.committedBeforeMB, heapAfterMB: e.heapAfterMB, committedAfterMB: e.committedAfterMB, pooledMB: e.pooledMB, pauseMs: e.pauseMs,
    externalMs: e.externalMs, incrementalMarking: e.incrementalMarking, mu: e.mu, reason: e.reason, collectorReason: e.collectorReason, source: e.source,
  };
  if (e.qualifiers !== undefined) out.qualifiers = [...e.qualifiers];
  if (e.nvp !== undefined) out.nvp = e.nvp;
  return out;
}

describe('GcEventTable', () => {
  for (const log of LOGS) {
    it(`keeps every event of ${log} as its parser reads it`, () => {
      const parsed: GcEvent[] = [];
      for (const line of readFileSync(join(FIXTURES, log), 'utf8').split('\n')) {
        const c = classifyStdoutLine(line);
        if (c.kind === 'gc') parsed.push(c.event);
      }
      // A small first capacity, so the columns grow while the log is read.
      const collector = new GcTraceCollector(16);
      for (const line of readFileSync(join(FIXTURES, log), 'utf8').split('\n')) collector.addLine(line);
      assert.equal(collector.table.length, parsed.length);
      assert.deepEqual(collector.events, parsed);
      const rows = collector.table.views();
      for (let i = 0; i < parsed.length; i++) {
        assert.deepEqual(fields(rows[i]!), fields(parsed[i]!), `${log}, event ${i}`);
        assert.deepEqual(JSON.parse(JSON.stringify(rows[i])), JSON.parse(JSON.stringify(parsed[i])));
      }
    });
  }

  it('numbers isolates in the order of their first event, and keeps the strings once', () => {
    const line = (isolate: string, type: string) => `[7:${isolate}]   12 ms: ${type} 1.5 (2.0) -> 1.0 (2.0) MB, 0.50 / 0.00 ms  (average mu = 1.000, current mu = 1.000) task; `;
    const collector = new GcTraceCollector(16);
    for (let i = 0; i < 100; i++) collector.addLine(line(i % 3 === 0 ? '0xb' : '0xa', i % 2 === 0 ? 'Scavenge' : 'Mark-Compact'));
    assert.deepEqual(collector.table.isolates, [{ pid: 7, isolate: '0xb' }, { pid: 7, isolate: '0xa' }]);
    assert.equal(collector.table.isolateOf(0), 0);
    assert.equal(collector.table.isolateOf(1), 1);
    assert.deepEqual(collector.countsByType(), { Scavenge: 50, 'Mark-Compact': 50 });
    assert.deepEqual(collector.tallyByIsolate().map((t) => [t.isolate, t.counts]), [
      ['0xb', { Scavenge: 17, 'Mark-Compact': 17 }],
      ['0xa', { 'Mark-Compact': 33, Scavenge: 33 }],
    ]);
  });
});
