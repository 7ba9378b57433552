/**
 * The collector fed line by line, and whole saved logs. Expected counts come from grep on the
 * recorded files, not from our parser, e.g. for node22.txt:
 *   grep -c ' ms: Scavenge [0-9]'               → 40
 *   grep -c ' ms: Scavenge (interleaved) [0-9]' → 3
 *   grep -c ' ms: Mark-Compact [0-9]'           → 3, and 2 with " (reduce)"
 *   grep -c ' ms: Minor Mark-Sweep [0-9]'       → 8
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { GcTraceCollector, parseGcTraceText } from '../../../src/core/gc/gcTraceCollector';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'gc');
const read = (file: string) => readFileSync(join(FIXTURES, file), 'utf8');

const SCAVENGE = '[12908:0xab4ec00]     1444 ms: Scavenge 4.6 (5.7) -> 4.4 (6.2) MB, 1.21 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ';
const MARK_COMPACT =
  '[12908:0xab4ec00]    12015 ms: Mark-Compact 136.9 (169.2) -> 128.4 (172.5) MB, 10.67 / 0.00 ms  (+ 72.0 ms in 199 steps since start of marking, biggest step 20.1 ms, walltime since start of marking 139 ms) (average mu = 0.985, current mu = 0.971) finalize incremental marking via task; GC in old space requested';
const WORKER_SCAVENGE = '[12908:0x7f5fd0000f00]       15 ms: Scavenge 3.2 (3.2) -> 2.8 (4.2) MB, 1.02 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ';

describe('GcTraceCollector', () => {
  it('classifies lines, keeps events in arrival order and counts per type', () => {
    const c = new GcTraceCollector();
    assert.equal(c.addLine('[INFO] starting'), 'app');
    assert.equal(c.addLine(SCAVENGE), 'gc');
    assert.equal(c.addLine(WORKER_SCAVENGE), 'gc');
    assert.equal(c.addLine('[12908:0xab4ec00] Memory allocator,       used:   5864 KB'), 'v8');
    assert.equal(c.addLine(SCAVENGE.replace('Scavenge', 'Scavenge (interleaved)')), 'gc');
    assert.equal(c.addLine(MARK_COMPACT), 'gc');
    assert.equal(c.addLine('[12908:0xab4ec00]     1444 ms: Scavenge 4.6 (5.7) -> garbled'), 'v8');
    assert.equal(c.addLine('[1, 2, 3]'), 'app');

    assert.deepEqual(
      c.events.map((e) => [e.isolate, e.type, e.pauseMs]),
      [
        ['0xab4ec00', 'Scavenge', 1.21],
        ['0x7f5fd0000f00', 'Scavenge', 1.02],
        ['0xab4ec00', 'Scavenge', 1.21],
        ['0xab4ec00', 'Mark-Compact', 10.67],
      ],
    );
    assert.deepEqual(c.countsByType(), { Scavenge: 3, 'Mark-Compact': 1 });
    assert.equal(c.unparsedLines, 1);
    assert.equal(c.totalPauseMs, 1.21 + 1.02 + 1.21 + 10.67);
    assert.deepEqual(c.isolates(), [
      { pid: 12908, isolate: '0xab4ec00', firstEventIndex: 0 },
      { pid: 12908, isolate: '0x7f5fd0000f00', firstEventIndex: 1 },
    ]);
  });

  it('starts empty', () => {
    const c = new GcTraceCollector();
    assert.deepEqual(c.events, []);
    assert.deepEqual(c.countsByType(), {});
    assert.equal(c.unparsedLines, 0);
    assert.equal(c.totalPauseMs, 0);
    assert.deepEqual(c.isolates(), []);
  });
});

describe('parseGcTraceText: recorded logs', () => {
  const typeCounts = (text: string) => {
    const counts: Record<string, number> = {};
    for (const e of parseGcTraceText(text).events) counts[e.type] = (counts[e.type] ?? 0) + 1;
    return counts;
  };

  it('Node 18: Scavenge, "Mark-sweep", Minor Mark-Compact (--minor-mc child)', () => {
    const r = parseGcTraceText(read('node18.txt'));
    assert.equal(r.unparsedLines, 0);
    assert.equal(r.truncatedLastLine, false);
    assert.deepEqual(typeCounts(read('node18.txt')), { Scavenge: 43, 'Mark-sweep': 5, 'Minor Mark-Compact': 9 });
    assert.equal(r.events.filter((e) => e.reduce).length, 2);
    assert.equal(r.events.filter((e) => e.incrementalMarking !== null).length, 2);
  });

  it('Node 20: Scavenge, Mark-Compact, Minor Mark-Compact', () => {
    const r = parseGcTraceText(read('node20.txt'));
    assert.equal(r.unparsedLines, 0);
    assert.deepEqual(typeCounts(read('node20.txt')), { Scavenge: 43, 'Mark-Compact': 5, 'Minor Mark-Compact': 8 });
    assert.equal(r.events.filter((e) => e.pooledMB !== null).length, 0);
  });

  it('Node 22: pooled, interleaved scavenges, Minor Mark-Sweep', () => {
    const r = parseGcTraceText(read('node22.txt'));
    assert.equal(r.unparsedLines, 0);
    assert.deepEqual(typeCounts(read('node22.txt')), { Scavenge: 43, 'Mark-Compact': 5, 'Minor Mark-Sweep': 8 });
    assert.equal(r.events.filter((e) => e.interleaved).length, 3);
    assert.equal(r.events.filter((e) => e.reduce).length, 2);
    assert.equal(r.events.filter((e) => e.pooledMB !== null).length, 56);
  });

  it('Node 24: the same kinds, and the exact fields of one line', () => {
    const r = parseGcTraceText(read('node24.txt'));
    assert.equal(r.unparsedLines, 0);
    assert.deepEqual(typeCounts(read('node24.txt')), { Scavenge: 38, 'Mark-Compact': 5, 'Minor Mark-Sweep': 9 });
    assert.equal(r.events.filter((e) => e.interleaved).length, 1);
    // [5099:0x7f8c000] 121 ms: Mark-Compact 47.7 (64.9) -> 39.4 (74.1) MB, pooled: 0 MB, 10.07 / 0.00 ms (+ 12.6 ms in 427 steps …)
    const mc = r.events.find((e) => e.type === 'Mark-Compact')!;
    assert.deepEqual(
      [mc.pid, mc.isolate, mc.timeMs, mc.heapBeforeMB, mc.committedBeforeMB, mc.pauseMs, mc.incrementalMarking?.ms, mc.reason, mc.collectorReason],
      [5099, '0x7f8c000', 121, 47.7, 64.9, 10.07, 12.6, 'allocation failure', 'Incremental marking forced finalization'],
    );
  });

  it('parses the NVP recordings', () => {
    assert.deepEqual(typeCounts(read('node20-nvp.txt')), { Scavenge: 5, 'Mark-Compact': 4, 'Minor Mark-Compact': 4 });
    assert.deepEqual(typeCounts(read('node24-nvp.txt')), { Scavenge: 4, 'Mark-Compact': 4, 'Minor Mark-Sweep': 5 });
    assert.deepEqual(typeCounts(read('node26-nvp.txt')), { Scavenge: 4, 'Incremental Mark-Compact': 1, 'Mark-Compact': 3, 'Minor Mark-Sweep': 5 });
  });

  it('Node 26: scavenges during sweeping and incremental full GCs, every timed line read', () => {
    // grep -c ' ms: ' → 357; ' ms: Scavenge (during sweeping) ' → 18; ' ms: Incremental Mark-Compact ' → 6
    const r = parseGcTraceText(read('node26-churn.txt'));
    assert.equal(r.unparsedLines, 0);
    assert.deepEqual(r.raw, { gcLines: 357, nvpAllocatedLines: 0, nvpAllocatedRead: 0 });
    assert.deepEqual(typeCounts(read('node26-churn.txt')), { Scavenge: 351, 'Incremental Mark-Compact': 6 });
    assert.equal(r.events.filter((e) => e.qualifiers?.includes('during sweeping')).length, 18);
    assert.equal(r.events.filter((e) => e.incrementalMarking !== null).length, 6);
  });
});

describe('GcTraceCollector: the raw counts the self-check holds the events against', () => {
  it('counts every timed GC-shaped line, read or not, and not the other timed messages', () => {
    const c = new GcTraceCollector();
    c.addLine(SCAVENGE);
    c.addLine(SCAVENGE.replace('Scavenge ', 'Scavenge (during sweeping) '));
    c.addLine('[12908:0xab4ec00]     1500 ms: Young Sweep 4.6 MB -> 4.4 MB in 1.2 ms'); // a kind no Node printed
    c.addLine('[12908:0xab4ec00]     1501 ms: [HeapController] factor 4.0 based on mu=0.970');
    c.addLine('[12908:0xab4ec00:0]   1502 ms: Memory pool: Removed pages: 0, removed large pages: 0');
    c.addLine('[12908:0xab4ec00] Memory allocator,       used:   5864 KB');
    c.addLine('[INFO] 1444 ms: Scavenge');
    assert.equal(c.events.length, 2);
    assert.equal(c.unparsedLines, 1);
    assert.deepEqual(c.rawCounts(), { gcLines: 3, nvpAllocatedLines: 0, nvpAllocatedRead: 0 });
  });

  it("counts NVP lines that print allocated bytes, in both forms, apart from the parser's reading", () => {
    const lines = read('node24-nvp.txt').split('\n').concat(read('node26-nvp.txt').split('\n'));
    const c = new GcTraceCollector();
    for (const line of lines) c.addLine(line);
    // grep -c 'allocated=' node24-nvp.txt → 13; grep -c '"allocated":' node26-nvp.txt → 13
    assert.deepEqual(c.rawCounts(), { gcLines: 26, nvpAllocatedLines: 26, nvpAllocatedRead: 26 });
    const broken = new GcTraceCollector();
    broken.addLine('[16912:0x24167000:0]       54 ms: GC: {"pause":5.242,"gc":"s","allocated":39677152,"cut');
    assert.deepEqual(broken.rawCounts(), { gcLines: 1, nvpAllocatedLines: 1, nvpAllocatedRead: 0 });
  });
});

describe('parseGcTraceText: damaged and odd input', () => {
  it('gives the events of complete lines when the log is cut mid-line', () => {
    const text = read('node20.txt');
    const cutAt = text.indexOf('Mark-Compact') + 20; // inside the first Mark-Compact line
    const r = parseGcTraceText(text.slice(0, cutAt));
    const before = text.slice(0, text.lastIndexOf('\n', cutAt)).split('\n').filter((l) => l.includes(' ms: ')).length;
    assert.equal(r.events.length, before);
    assert.equal(r.truncatedLastLine, true);
    assert.equal(r.unparsedLines, 0, 'the cut line is reported as truncated, not as unparsed');
  });

  it('does not trust a last line cut inside its reason', () => {
    const r = parseGcTraceText(`${SCAVENGE}\n${MARK_COMPACT.slice(0, MARK_COMPACT.indexOf('; '))}`);
    assert.equal(r.events.length, 1);
    assert.equal(r.truncatedLastLine, true);
  });

  it('accepts a complete last line without a newline', () => {
    const r = parseGcTraceText(`${SCAVENGE}\n${MARK_COMPACT}`);
    assert.equal(r.events.length, 2);
    assert.equal(r.truncatedLastLine, false);
  });

  it('handles CRLF line ends', () => {
    const r = parseGcTraceText(read('node22.txt').replace(/\n/g, '\r\n'));
    assert.equal(r.events.length, 56);
    assert.equal(r.events.every((e) => !e.collectorReason.endsWith('\r') && !e.reason.endsWith('\r')), true);
  });

  it('gives nothing for an empty text', () => {
    const nothing = { events: [], unparsedLines: 0, raw: { gcLines: 0, nvpAllocatedLines: 0, nvpAllocatedRead: 0 }, truncatedLastLine: false };
    assert.deepEqual(parseGcTraceText(''), nothing);
    assert.deepEqual(parseGcTraceText('\n\n'), nothing);
  });

  it('survives binary-ish garbage', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let garbage = '';
    for (let i = 0; i < 200_000; i++) garbage += String.fromCharCode(Math.floor(random() * 256));
    // Splice fragments of real lines in, so the parser gets past its first checks.
    const fragments = [SCAVENGE.slice(0, 50), MARK_COMPACT.slice(0, 150), '[1:0x1]  1 ms: ', '[1:0x1]  1 ms: pause='];
    for (let i = 0; i < 2000; i++) {
      const at = Math.floor(random() * garbage.length);
      garbage = garbage.slice(0, at) + fragments[i % fragments.length]! + garbage.slice(at);
    }
    const r = parseGcTraceText(garbage);
    assert.ok(r.events.every((e) => Number.isFinite(e.pauseMs)));
    assert.equal(typeof r.unparsedLines, 'number');
    const withRealLines = parseGcTraceText(`${garbage}\n${SCAVENGE}\n${garbage}\n`);
    assert.ok(withRealLines.events.some((e) => e.timeMs === 1444 && e.pauseMs === 1.21));
  });
});
