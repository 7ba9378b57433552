/**
 * The GC summary read from the columns (report <gc log>) is the summary of the same events as
 * objects, field for field and to the last bit: every recorded log of Node 18–26 (--trace-gc and
 * NVP, one isolate or several), all of them in one log, and with each option a run passes.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { summarizeGc, summarizeGcTable, type GcSummaryOptions } from '../../../src/core/gc/gcSummary';
import { GcTraceCollector } from '../../../src/core/gc/gcTraceCollector';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'gc');
const LOGS = readdirSync(FIXTURES).filter((f) => f.endsWith('.txt'));

function collect(text: string): GcTraceCollector {
  const collector = new GcTraceCollector();
  for (const line of text.split('\n')) collector.addLine(line);
  return collector;
}

function sameSummaries(collector: GcTraceCollector, what: string): void {
  const pids = [...new Set(collector.table.isolates.map((i) => i.pid))];
  const options: GcSummaryOptions[] = [
    {},
    { unparsedLines: 3, wallMs: 5000, semiSpaceRequestedMB: 16 },
    { newSpaceMaxBytes: 33554432, semiSpaceMB: 8 },
    { newSpaceMaxBytes: null },
    ...pids.map((mainPid) => ({ mainPid })),
    { mainPid: 1 }, // not in the log: the first isolate
  ];
  for (const o of options) assert.deepEqual(summarizeGcTable(collector.table, o), summarizeGc(collector.events, o), `${what}, ${JSON.stringify(o)}`);
}

describe('summarizeGcTable', () => {
  for (const log of LOGS) {
    it(`gives summarizeGc's figures for ${log}`, () => {
      const collector = collect(readFileSync(join(FIXTURES, log), 'utf8'));
      assert.ok(collector.table.length > 0, `${log} has GC lines`);
      sameSummaries(collector, log);
    });
  }

  it("gives summarizeGc's figures for every log in one (many processes and isolates, both forms)", () => {
    const collector = collect(LOGS.map((log) => readFileSync(join(FIXTURES, log), 'utf8')).join('\n'));
    assert.ok(collector.table.isolates.length > 5);
    sameSummaries(collector, 'all logs');
  });

  it('gives an empty summary for no events', () => {
    sameSummaries(new GcTraceCollector(), 'no events');
  });
});
