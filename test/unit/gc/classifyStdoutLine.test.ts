/**
 * Which stdout lines are the app's (passed through to the user) and which are V8's. Counts were
 * taken independently with grep on the recorded files, e.g. for node20-verbose.txt:
 *   grep -cE '^\[[0-9]+:0x[0-9a-f]+\] +[0-9]+ ms: (Scavenge|Mark-Compact|Minor Mark-Sweep|Minor Mark-Compact)'  → 13
 *   grep -cE '^\[[0-9]+:0x[0-9a-f]+(:[0-9]+)?\]'                                                             → 211
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { classifyStdoutLine } from '../../../src/core/gc/classifyStdoutLine';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'gc');
const linesOf = (file: string) => readFileSync(join(FIXTURES, file), 'utf8').replace(/\n$/, '').split('\n');

function tally(lines: readonly string[]) {
  const counts = { gc: 0, v8: 0, app: 0, looksLikeGcEvent: 0 };
  for (const line of lines) {
    const c = classifyStdoutLine(line);
    counts[c.kind]++;
    if (c.kind === 'v8' && c.looksLikeGcEvent) counts.looksLikeGcEvent++;
  }
  return counts;
}

describe('classifyStdoutLine', () => {
  it('returns app for app output, including lines that start with "["', () => {
    const appLines = [
      '',
      ' ',
      'server listening on http://127.0.0.1:3000',
      '[INFO] recorder starting',
      '[ 1, 2, 3 ]',
      '[1, 2, 3]',
      '[1,2,3]',
      '[{"ms":12,"type":"Scavenge"}]',
      '["[12908:0xab4ec00]     1444 ms: Scavenge"]',
      '[12:34:56] 100 ms: Scavenge finished',
      '[2024-05-01T10:00:00Z] 1444 ms: Scavenge',
      '[12908] 1444 ms: Scavenge 4.6 (5.7) -> 4.4 (6.2) MB',
      '[12908:abc] 1444 ms: Scavenge',
      '[12908:0x] 1444 ms: Scavenge',
      '[12908:0xab4ec00 1444 ms: Scavenge',
      '[:0xab4ec00] 1444 ms: Scavenge',
      ' [12908:0xab4ec00]     1444 ms: Scavenge 4.6 (5.7) -> 4.4 (6.2) MB, 1.21 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ',
      'prefix[12908:0xab4ec00]     1444 ms: Scavenge',
      '\u0000\u0001\u0002[\uFFFD',
    ];
    for (const line of appLines) assert.deepEqual(classifyStdoutLine(line), { kind: 'app' }, JSON.stringify(line));
  });

  it('returns gc with the event for --trace-gc and --trace-gc-nvp lines', () => {
    const c = classifyStdoutLine('[12908:0xab4ec00]     1444 ms: Scavenge 4.6 (5.7) -> 4.4 (6.2) MB, 1.21 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ');
    assert.equal(c.kind, 'gc');
    assert.equal(c.kind === 'gc' && c.event.pauseMs, 1.21);
    const nvp = classifyStdoutLine('[16002:0x295e2000:0]     1166 ms: pause=3.7 mutator=1162.0 gc=s reduce_memory=0');
    assert.equal(nvp.kind === 'gc' && nvp.event.source, 'nvp');
  });

  it('returns v8 for other V8 output, flagging GC-looking lines it could not parse', () => {
    const notGc = [
      '[13664:0x343aecb0] Memory allocator,       used:   5864 KB, available: 4237592 KB',
      '[13664:0x343aecb0] Total time spent in GC  : 1.1 ms',
      '[13664:0x343aecb0]     1703 ms: [HeapController] factor 4.0 based on mu=0.970, speed_ratio=0 (gc=0, mutator=9528)',
      '[4895:0x1e0a2000:0]       45 ms: [GlobalMemoryController] Limit: old size: 4412 KB, new limit: 21747 KB',
      '[4895:0x1e0a2000] Shrinking page 0x1e10f0f0: end 0x21634e00000 -> 0x21634dde000',
      '[4895:0x1e0a2000] (*) Sweeping is still in progress, making available sizes inaccurate.',
      '[26068:000001BB84659390] Memory allocator,       used:   5864 KB',
      '[16912:0x24167000:0]       54 ms: Memory pool: Removed pages: 0, removed large pages: 0',
    ];
    for (const line of notGc) assert.deepEqual(classifyStdoutLine(line), { kind: 'v8', looksLikeGcEvent: false }, line);

    const unparsed = [
      '[12908:0xab4ec00]     1444 ms: Scavenge 4.6 (5.7) -> 4.4 (6.2) MB, 1.21 / 0.00 ms  (average mu = 1.000, current',
      '[12908:0xab4ec00]     1444 ms: Scavenge 4.6 (5.7) -> 4.4 (6.2) MB, 1.21 ms [allocation failure]',
      '[12908:0xab4ec00]     1444 ms: Mark-sweep 4.6 (5.7) -> 4.4 (6.2) MB, 1.2 / 0.0 ms [Runtime::PerformGC] [GC in old space requested].',
      '[12908:0xab4ec00]     1444 ms: Minor Mark-Sweep something new',
      '[16002:0x295e2000:0]     1166 ms: pause=3.7 mutator=1162.0',
      '[16912:0x24167000:0]       54 ms: GC: {"pause":5.242,"mutator":45.073',
      // A timed line of a kind V8 has not printed before: by its shape a GC event, until known otherwise.
      '[12908:0xab4ec00]     1444 ms: Young Sweep 4.6 (5.7) -> 4.4 (6.2) MB in 1.2 ms',
      '[12908:0xab4ec00]     1444 ms: scavenge: 4.6 MB -> 4.4 MB, 1.21 ms',
    ];
    for (const line of unparsed) assert.deepEqual(classifyStdoutLine(line), { kind: 'v8', looksLikeGcEvent: true }, line);
  });

  it('classifies the recorded --trace-gc-verbose output (Node 20, Node 24)', () => {
    // 217 lines: 13 GC lines, 211 with a V8 prefix, 6 app lines (grep, see the header).
    assert.deepEqual(tally(linesOf('node20-verbose.txt')), { gc: 13, v8: 198, app: 6, looksLikeGcEvent: 0 });
    // 254 lines: 13 GC lines, 248 with a V8 prefix ([HeapController] lines carry ":0"), 6 app lines.
    assert.deepEqual(tally(linesOf('node24-verbose.txt')), { gc: 13, v8: 235, app: 6, looksLikeGcEvent: 0 });
  });

  it('classifies the recorded --trace-gc and NVP output', () => {
    // grep -cvE '^\[[0-9]+:0x' → 7 app lines in each --trace-gc recording, 6 in each NVP one.
    assert.deepEqual(tally(linesOf('node18.txt')), { gc: 57, v8: 0, app: 7, looksLikeGcEvent: 0 });
    assert.deepEqual(tally(linesOf('node20.txt')), { gc: 56, v8: 0, app: 7, looksLikeGcEvent: 0 });
    assert.deepEqual(tally(linesOf('node22.txt')), { gc: 56, v8: 0, app: 7, looksLikeGcEvent: 0 });
    assert.deepEqual(tally(linesOf('node24.txt')), { gc: 52, v8: 0, app: 7, looksLikeGcEvent: 0 });
    assert.deepEqual(tally(linesOf('node20-nvp.txt')), { gc: 13, v8: 0, app: 6, looksLikeGcEvent: 0 });
    assert.deepEqual(tally(linesOf('node24-nvp.txt')), { gc: 13, v8: 0, app: 6, looksLikeGcEvent: 0 });
  });

  it('classifies the recorded Node 26 output: new GC kinds, JSON NVP, the two-line memory-pool message', () => {
    // grep -cvE '^\[[0-9]+:0x' → 7 app lines; grep -c ' ms: ' → 55 GC lines.
    assert.deepEqual(tally(linesOf('node26.txt')), { gc: 55, v8: 0, app: 7, looksLikeGcEvent: 0 });
    assert.deepEqual(tally(linesOf('node26-churn.txt')), { gc: 357, v8: 0, app: 1, looksLikeGcEvent: 0 });
    // 23 lines: 13 "GC: {…}", 2 "Memory pool: …" (V8's, not events), their 2 ", removed zone reservations"
    // tails (no prefix: the classifier cannot tell them from the app's; the demultiplexer can), 6 app lines.
    assert.deepEqual(tally(linesOf('node26-nvp.txt')), { gc: 13, v8: 2, app: 8, looksLikeGcEvent: 0 });
    // grep -cE '^\[[0-9]+:0x[0-9a-f]+(:[0-9]+)?\]' → 262, of which 14 GC lines; 6 app lines.
    assert.deepEqual(tally(linesOf('node26-verbose.txt')), { gc: 14, v8: 248, app: 6, looksLikeGcEvent: 0 });
  });
});
