/**
 * `--trace-gc-nvp` lines recorded with Node 20, 24 and 26 (test/fixtures/gc/node20-nvp.txt, node24-nvp.txt,
 * node26-nvp.txt: Node 26 prints one JSON object, `GC: {…}`, instead of name=value pairs).
 */
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

describe('parseNvpLine: Node 26 (JSON)', () => {
  const events = parseAll('node26-nvp.txt');

  it('parses every "GC: {…}" line and names the types as --trace-gc does', () => {
    // grep -c ' ms: GC: {' → 13; grep -o '"gc":"[a-z]*"' | uniq -c → 4 s, 4 mc, 5 mms; '"is_incremental":true' → 1
    assert.equal(events.length, 13);
    assert.deepEqual(countTypes(events), { Scavenge: 4, 'Incremental Mark-Compact': 1, 'Mark-Compact': 3, 'Minor Mark-Sweep': 5 });
    assert.deepEqual([...new Set(events.map((e) => `${e.pid}:${e.isolate}`))], ['16912:0x24167000', '16919:0x32981000']);
    // The "Memory pool: …" lines between them are not GC events.
    assert.equal(parseNvpLine(linesOf('node26-nvp.txt').find((l) => l.includes('Memory pool:'))!), null);
  });

  it('reads the first scavenge field by field, booleans as 1/0 like the old form', () => {
    const e = events[0]!;
    assert.equal(e.source, 'nvp');
    assert.equal(e.timeMs, 54);
    assert.equal(e.type, 'Scavenge');
    assert.equal(e.pauseMs, 5.242);
    assert.equal(e.heapBeforeMB, 39677152 / MB);
    assert.equal(e.heapAfterMB, 9809304 / MB);
    assert.equal(e.committedBeforeMB, 41115648 / MB);
    assert.equal(e.committedAfterMB, 44961792 / MB);
    assert.equal(e.reduce, false);
    assert.equal(e.interleaved, false);
    assert.equal(e.qualifiers, undefined);
    assert.equal(e.incrementalMarking, null);
    assert.equal(e.reason, 'allocation failure', 'the JSON form names the reason');
    assert.equal(e.collectorReason, '');
    assert.equal(e.nvp?.reduce_memory, 0);
    assert.equal(e.nvp?.stack, 1);
    assert.equal(e.nvp?.mutator, 45.073);
  });

  it('exposes the same keys as the name=value form: allocated, promoted, survival, background phases', () => {
    const old = parseAll('node24-nvp.txt').find((x) => x.type === 'Scavenge')!;
    const e = events[0]!;
    for (const key of ['allocated', 'promoted', 'new_space_survived', 'average_survival_ratio', 'start_object_size', 'end_object_size', 'background.scavenge.parallel', 'scavenge.parallel', 'incremental.steps_count']) {
      assert.equal(typeof old.nvp?.[key], 'number', `Node 24 has ${key}`);
      assert.equal(typeof e.nvp?.[key], 'number', `Node 26 has ${key}`);
    }
    assert.equal(e.nvp?.allocated, 39677152);
    assert.equal(e.nvp?.['background.scavenge.parallel'], 9.66);
  });

  it('reads the incremental full GC, the scavenge during sweeping and the reasons', () => {
    const full = events.find((x) => x.type === 'Incremental Mark-Compact')!;
    assert.equal(full.timeMs, 114);
    assert.equal(full.pauseMs, 12.046);
    assert.equal(full.collectorReason, 'Incremental marking forced finalization');
    assert.ok(full.incrementalMarking !== null && full.incrementalMarking.ms > 0);
    const sweeping = events.filter((x) => x.qualifiers?.includes('during sweeping'));
    // grep -c '"during_sweeping":true' → 1
    assert.deepEqual(sweeping.map((x) => [x.timeMs, x.type]), [[122, 'Scavenge']]);
    const reduced = events.filter((x) => x.reduce);
    assert.deepEqual(reduced.map((x) => [x.type, x.reason]), [['Mark-Compact', 'heap profiler'], ['Mark-Compact', 'heap profiler']]);
  });

  it('keeps a line with a bare nan or inf value, and rejects broken JSON', () => {
    const line = '[16912:0x24167000:0]       54 ms: GC: {"pause":5.242,"gc":"s","allocated":100,"scavenge_throughput":inf,"rate":-nan}';
    const e = parseNvpLine(line)!;
    assert.equal(e.pauseMs, 5.242);
    assert.equal(e.nvp?.allocated, 100);
    assert.equal(e.nvp?.scavenge_throughput, undefined);
    for (const bad of [
      '[16912:0x24167000:0]       54 ms: GC: {"pause":5.242,"gc":"s"',
      '[16912:0x24167000:0]       54 ms: GC: [1, 2]',
      '[16912:0x24167000:0]       54 ms: GC: {"gc":"s"}',
      '[16912:0x24167000:0]       54 ms: GC: {"pause":"5","gc":"s"}',
    ]) {
      assert.equal(parseNvpLine(bad), null, bad);
    }
    const proto = parseNvpLine('[1:0x1:0] 5 ms: GC: {"pause":1,"gc":"s","__proto__":{"x":1}}')!;
    assert.equal(Object.getPrototypeOf(proto.nvp), Object.prototype);
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
