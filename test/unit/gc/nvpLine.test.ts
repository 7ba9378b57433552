/** `--trace-gc-nvp` lines recorded with Node 20 and Node 24 (test/fixtures/gc/node20-nvp.txt, node24-nvp.txt). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { GcEvent } from '../../../src/core/gc/gcEvent';
import { parseNvpLine } from '../../../src/core/gc/nvpLine';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'gc');
const linesOf = (file: string) => readFileSync(join(FIXTURES, file), 'utf8').split('\n');
const MB = 1024 * 1024;

function parseAll(file: string): GcEvent[] {
  return linesOf(file)
    .map(parseNvpLine)
    .filter((e): e is GcEvent => e !== null);
}

function countTypes(events: readonly GcEvent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of events) counts[e.type] = (counts[e.type] ?? 0) + 1;
  return counts;
}

describe('parseNvpLine: Node 20', () => {
  const events = parseAll('node20-nvp.txt');

  it('parses every NVP line and maps gc= codes to the --trace-gc type names', () => {
    // grep -c ' ms: pause=' → 13; grep -o ' gc=[a-z]*' | uniq -c → 5 s, 4 mc, 4 mmc (the --minor-mc child)
    assert.equal(events.length, 13);
    assert.deepEqual(countTypes(events), { Scavenge: 5, 'Mark-Compact': 4, 'Minor Mark-Compact': 4 });
    // grep -c 'reduce_memory=1' → 2
    assert.equal(events.filter((e) => e.reduce).length, 2);
    assert.deepEqual([...new Set(events.map((e) => `${e.pid}:${e.isolate}`))], ['6468:0x1a366ef0', '6475:0x113abe20']);
  });

  it('reads a Mark-Compact after incremental marking, with total_size_before/after', () => {
    const e = events.find((x) => x.type === 'Mark-Compact')!;
    assert.equal(e.source, 'nvp');
    assert.equal(e.timeMs, 156);
    assert.equal(e.pauseMs, 15.3);
    assert.equal(e.heapBeforeMB, 44847624 / MB);
    assert.equal(e.heapAfterMB, 40823728 / MB);
    assert.ok(Number.isNaN(e.committedBeforeMB), 'Node 20 NVP has no committed sizes');
    assert.ok(Number.isNaN(e.committedAfterMB));
    assert.deepEqual(e.incrementalMarking, { ms: 18.6, steps: 477, biggestStepMs: 0.1, wallMs: 60 });
    assert.equal(e.externalMs, 0);
    assert.equal(e.mu, null);
    assert.equal(e.pooledMB, null);
    assert.equal(e.reason, '');
    assert.equal(e.collectorReason, '');
    assert.equal(e.nvp?.mutator, 20.8);
    assert.equal(e.nvp?.gc, 'mc');
    assert.equal(e.nvp?.promotion_ratio, 96.5, '"%" is stripped');
  });

  it('gives a Scavenge no incremental marking', () => {
    const e = events[0]!;
    assert.equal(e.type, 'Scavenge');
    assert.equal(e.incrementalMarking, null);
    assert.equal(typeof e.nvp?.['scavenge.parallel'], 'number');
  });
});

describe('parseNvpLine: Node 24', () => {
  const events = parseAll('node24-nvp.txt');

  it('parses the [pid:isolate:N] prefix and gc=mms', () => {
    // grep -o ' gc=[a-z]*' | uniq -c → 4 s, 4 mc, 5 mms
    assert.equal(events.length, 13);
    assert.deepEqual(countTypes(events), { Scavenge: 4, 'Mark-Compact': 4, 'Minor Mark-Sweep': 5 });
    assert.deepEqual([...new Set(events.map((e) => `${e.pid}:${e.isolate}`))], ['6482:0x1def7000', '6489:0x33ab5000']);
  });

  it('reads the renamed size keys and the committed sizes', () => {
    const e = events.find((x) => x.type === 'Mark-Compact')!;
    assert.equal(e.timeMs, 157);
    assert.equal(e.pauseMs, 19.4);
    assert.equal(e.heapBeforeMB, 60009656 / MB);
    assert.equal(e.heapAfterMB, 48270048 / MB);
    assert.equal(e.committedBeforeMB, 94711808 / MB);
    assert.equal(e.committedAfterMB, 116781056 / MB);
    assert.deepEqual(e.incrementalMarking, { ms: 16.4, steps: 444, biggestStepMs: 0.2, wallMs: 62 });
    assert.equal(e.nvp?.new_space_capacity, 33554432);
  });

  it('splits the pair V8 prints without a space ("…=0.0clear.join_job=0.1")', () => {
    const e = events.find((x) => x.type === 'Mark-Compact')!;
    assert.equal(e.nvp?.['clear.join_filter_job'], 0);
    assert.equal(e.nvp?.['clear.join_job'], 0.1);
  });
});

describe('parseNvpLine: tolerance', () => {
  const line = '[16002:0x295e2000:0]     1166 ms: pause=3.7 mutator=1162.0 gc=s reduce_memory=0 interleaved=1 promotion_ratio=0.0% start_object_size=5415584';

  it('reads a hand-checked short line', () => {
    const e = parseNvpLine(`${line}\r`)!;
    assert.equal(e.type, 'Scavenge');
    assert.equal(e.interleaved, true);
    assert.equal(e.heapBeforeMB, 5415584 / MB);
    assert.ok(Number.isNaN(e.heapAfterMB));
    assert.equal(e.nvp?.start_object_size, 5415584, 'a trailing \\r is not part of the last value');
  });

  it('keeps unknown gc codes and non-numeric values as printed', () => {
    const e = parseNvpLine(line.replace('gc=s', 'gc=xyz').replace('reduce_memory=0', 'mode=fast'))!;
    assert.equal(parseNvpLine(line.replace('gc=s', 'gc=constructor'))?.type, 'constructor');
    assert.equal(e.type, 'xyz');
    assert.equal(e.nvp?.mode, 'fast');
  });

  it('rejects lines that are not NVP', () => {
    for (const bad of [
      '',
      'pause=1.0 gc=s',
      '[1, 2, 3]',
      '[16002:0x295e2000:0]     1166 ms: gc=s pause=1.0',
      '[16002:0x295e2000:0]     1166 ms: pause=1.0',
      '[16002:0x295e2000:0]     1166 ms: pause=x gc=s',
      '[12908:0xab4ec00]     1444 ms: Scavenge 4.6 (5.7) -> 4.4 (6.2) MB, 1.21 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ',
    ]) {
      assert.equal(parseNvpLine(bad), null, bad);
    }
  });

  it('ignores stray words and a "__proto__" key', () => {
    const e = parseNvpLine(`${line} stray __proto__=1 last=2`)!;
    assert.equal(e.nvp?.last, 2);
    assert.equal(Object.getPrototypeOf(e.nvp), Object.prototype);
  });
});
