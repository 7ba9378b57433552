/**
 * `--trace-gc` lines: the verbatim samples of gc.md §2.2 (Node 20/22/24 runs), lines from our own
 * recordings (test/fixtures/gc, Node 18–26), and the edge cases the launcher will meet.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isFullGc, isYoungGenerationGc, type GcEvent } from '../../../src/core/gc/gcEvent';
import { parseTraceGcLine } from '../../../src/core/gc/traceGcLine';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'gc');
const linesOf = (file: string) => readFileSync(join(FIXTURES, file), 'utf8').replace(/\n$/, '').split('\n');

function parse(line: string): GcEvent {
  const event = parseTraceGcLine(line);
  assert.ok(event, `should parse: ${line}`);
  return event;
}

// gc.md §2.2, verbatim (trailing "; " included).
const NODE20_SAMPLES = [
  '[12908:0xab4ec00]     1444 ms: Scavenge 4.6 (5.7) -> 4.4 (6.2) MB, 1.21 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ',
  '[12908:0xab4ec00]     1426 ms: Scavenge 4.5 (4.7) -> 4.1 (5.7) MB, 9.04 / 0.00 ms  (average mu = 1.000, current mu = 1.000) task; ',
  '[7860:0x2ee1fc00]    12015 ms: Mark-Compact 136.9 (169.2) -> 128.4 (172.5) MB, 10.67 / 0.00 ms  (+ 72.0 ms in 199 steps since start of marking, biggest step 20.1 ms, walltime since start of marking 139 ms) (average mu = 0.985, current mu = 0.971) finalize incremental marking via task; GC in old space requested',
  '[14540:0x1daf7d50]       74 ms: Mark-Compact 22.2 (51.9) -> 17.1 (50.7) MB, 10.87 / 0.00 ms  (+ 1.2 ms in 16 steps since start of marking, biggest step 0.1 ms, walltime since start of marking 14 ms) (average mu = 1.000, current mu = 1.000) finalize incremental marking via stack guard; GC in old space requested',
  '[14540:0x1daf7d50]     1088 ms: Mark-Compact (reduce) 3.2 (38.2) -> 2.6 (4.5) MB, 12.15 / 0.00 ms  (+ 0.3 ms in 8 steps since start of marking, biggest step 0.0 ms, walltime since start of marking 13 ms) (average mu = 0.748, current mu = 0.214) external memory pressure; GC in old space requested',
  '[14540:0x1daf7d50]     1059 ms: Scavenge 65.5 (89.0) -> 63.9 (91.3) MB, 6.49 / 0.00 ms  (average mu = 0.752, current mu = 0.836) external memory pressure; ',
  '[14540:0x1daf7d50]     1188 ms: Mark-Compact 2.6 (4.5) -> 2.6 (4.5) MB, 0.70 / 0.00 ms  (+ 0.1 ms in 1 steps since start of marking, biggest step 0.1 ms, walltime since start of marking 4 ms) (average mu = 0.949, current mu = 0.981) external memory pressure; Incremental marking needs finalization',
  '[14540:0x1daf7d50]     1231 ms: Scavenge 2.8 (5.5) -> 2.8 (5.5) MB, 0.28 / 0.00 ms  (average mu = 0.871, current mu = 0.659) testing; ',
  '[14540:0x1daf7d50]     1231 ms: Mark-Compact 2.8 (4.5) -> 2.6 (5.5) MB, 1.80 / 0.00 ms  (average mu = 0.871, current mu = 0.659) testing; GC in old space requested',
  '[14540:0x1daf7d50]     1241 ms: Mark-Compact (reduce) 2.8 (5.5) -> 2.6 (4.5) MB, 9.15 / 0.00 ms  (average mu = 0.514, current mu = 0.073) heap profiler; GC in old space requested',
];
const NODE22_SAMPLES = [
  '[14767:0xe451000]     1172 ms: Scavenge 5.1 (6.6) -> 4.9 (7.1) MB, pooled: 0 MB, 0.68 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ',
  '[14767:0xe451000]     1346 ms: Scavenge (interleaved) 21.7 (40.6) -> 9.7 (40.9) MB, pooled: 0 MB, 2.28 / 0.00 ms  (average mu = 1.000, current mu = 1.000) task; ',
  '[14767:0xe451000]     1352 ms: Mark-Compact 10.2 (40.9) -> 9.6 (42.9) MB, pooled: 0 MB, 1.79 / 0.00 ms  (+ 3.4 ms in 0 steps since start of marking, biggest step 0.0 ms, walltime since start of marking 36 ms) (average mu = 0.996, current mu = 0.996) finalize incremental marking via task; GC in old space requested',
  '[14992:0x30c7f000]     1361 ms: Minor Mark-Sweep 4.8 (5.6) -> 4.7 (5.6) MB, pooled: 0 MB, 0.70 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ',
  '[14992:0x30c7f000]     1628 ms: Minor Mark-Sweep 22.1 (33.9) -> 11.0 (33.9) MB, pooled: 0 MB, 0.41 / 0.00 ms  (average mu = 1.000, current mu = 1.000) finalize concurrent MinorMS; Concurrent MinorMS needs finalization',
];
const NODE24_SAMPLES = [
  '[15172:0x2629e000]     1174 ms: Scavenge 5.2 (7.1) -> 5.0 (9.3) MB, pooled: 0 MB, 0.97 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ',
  '[15545:0x1068c000]     7529 ms: Mark-Compact 439.2 (754.8) -> 116.4 (652.8) MB, pooled: 102 MB, 35.02 / 0.00 ms  (+ 55.7 ms in 66 steps since start of marking, biggest step 12.1 ms, walltime since start of marking 109 ms) (average mu = 0.935, current mu = 0.913) finalize incremental marking via stack guard; GC in old space requested',
];

describe('parseTraceGcLine: gc.md §2.2 samples', () => {
  it('parses every sample line', () => {
    for (const line of [...NODE20_SAMPLES, ...NODE22_SAMPLES, ...NODE24_SAMPLES]) parse(line);
  });

  it('reads every field of a Node 20 Mark-Compact with incremental marking', () => {
    assert.deepEqual(parse(NODE20_SAMPLES[2]!), {
      pid: 7860,
      isolate: '0x2ee1fc00',
      timeMs: 12015,
      type: 'Mark-Compact',
      interleaved: false,
      reduce: false,
      heapBeforeMB: 136.9,
      committedBeforeMB: 169.2,
      heapAfterMB: 128.4,
      committedAfterMB: 172.5,
      pooledMB: null,
      pauseMs: 10.67,
      externalMs: 0,
      incrementalMarking: { ms: 72, steps: 199, biggestStepMs: 20.1, wallMs: 139 },
      mu: { average: 0.985, current: 0.971 },
      reason: 'finalize incremental marking via task',
      collectorReason: 'GC in old space requested',
      source: 'trace-gc',
    });
  });

  it('reads a Scavenge with an empty collector reason (the trailing "; ")', () => {
    const e = parse(NODE20_SAMPLES[1]!);
    assert.equal(e.type, 'Scavenge');
    assert.equal(e.timeMs, 1426);
    assert.equal(e.pauseMs, 9.04);
    assert.equal(e.reason, 'task');
    assert.equal(e.collectorReason, '');
    assert.equal(e.incrementalMarking, null);
    assert.deepEqual(e.mu, { average: 1, current: 1 });
  });

  it('separates the (reduce) suffix from the type', () => {
    const e = parse(NODE20_SAMPLES[4]!);
    assert.equal(e.type, 'Mark-Compact');
    assert.equal(e.reduce, true);
    assert.equal(e.interleaved, false);
    assert.equal(e.pauseMs, 12.15);
    assert.deepEqual(e.incrementalMarking, { ms: 0.3, steps: 8, biggestStepMs: 0, wallMs: 13 });
    assert.equal(e.reason, 'external memory pressure');
    assert.equal(e.collectorReason, 'GC in old space requested');
  });

  it('reads a Mark-Compact without incremental marking', () => {
    const e = parse(NODE20_SAMPLES[8]!);
    assert.equal(e.incrementalMarking, null);
    assert.equal(e.pauseMs, 1.8);
    assert.equal(e.reason, 'testing');
  });

  it('reads Node 22 pooled memory and the (interleaved) suffix', () => {
    const e = parse(NODE22_SAMPLES[1]!);
    assert.equal(e.type, 'Scavenge');
    assert.equal(e.interleaved, true);
    assert.equal(e.reduce, false);
    assert.equal(e.pooledMB, 0);
    assert.equal(e.heapBeforeMB, 21.7);
    assert.equal(e.committedAfterMB, 40.9);
    assert.equal(e.pauseMs, 2.28);
  });

  it('keeps "0 steps" as printed (Node 22 reports marking time with 0 steps)', () => {
    assert.deepEqual(parse(NODE22_SAMPLES[2]!).incrementalMarking, { ms: 3.4, steps: 0, biggestStepMs: 0, wallMs: 36 });
  });

  it('reads Minor Mark-Sweep and its reasons', () => {
    const e = parse(NODE22_SAMPLES[4]!);
    assert.equal(e.type, 'Minor Mark-Sweep');
    assert.equal(e.pauseMs, 0.41);
    assert.equal(e.reason, 'finalize concurrent MinorMS');
    assert.equal(e.collectorReason, 'Concurrent MinorMS needs finalization');
  });

  it('reads a Node 24 Mark-Compact with pooled memory', () => {
    const e = parse(NODE24_SAMPLES[1]!);
    assert.equal(e.pid, 15545);
    assert.equal(e.isolate, '0x1068c000');
    assert.equal(e.pooledMB, 102);
    assert.equal(e.heapBeforeMB, 439.2);
    assert.equal(e.committedBeforeMB, 754.8);
    assert.equal(e.heapAfterMB, 116.4);
    assert.equal(e.committedAfterMB, 652.8);
    assert.equal(e.pauseMs, 35.02);
    assert.deepEqual(e.incrementalMarking, { ms: 55.7, steps: 66, biggestStepMs: 12.1, wallMs: 109 });
    assert.deepEqual(e.mu, { average: 0.935, current: 0.913 });
  });
});

describe('parseTraceGcLine: recorded lines (test/fixtures/gc)', () => {
  it('reads Node 18: "Mark-sweep" and one-decimal pauses', () => {
    const e = parse(
      '[5054:0x3b33ed00]      165 ms: Mark-sweep 29.5 (52.8) -> 20.7 (57.2) MB, 11.0 / 0.0 ms  (+ 18.6 ms in 402 steps since start of marking, biggest step 0.2 ms, walltime since start of marking 66 ms) (average mu = 1.000, current mu = 1.000) finalize incremental marking via stack guard; GC in old space requested',
    );
    assert.equal(e.type, 'Mark-sweep');
    assert.equal(e.pauseMs, 11);
    assert.deepEqual(e.incrementalMarking, { ms: 18.6, steps: 402, biggestStepMs: 0.2, wallMs: 66 });
    assert.equal(e.reason, 'finalize incremental marking via stack guard');
  });

  it('reads Node 20 --minor-mc: "Minor Mark-Compact"', () => {
    const e = parse('[5077:0x23bd6dd0]       20 ms: Minor Mark-Compact 4.3 (4.6) -> 3.9 (5.6) MB, 1.2 / 0.0 ms  (average mu = 1.000, current mu = 1.000) allocation failure; ');
    assert.equal(e.type, 'Minor Mark-Compact');
    assert.equal(e.pauseMs, 1.2);
  });

  it('reads a worker isolate address and a 7-digit main isolate address (Node 24)', () => {
    assert.equal(
      parse('[5099:0x7f9c30001000]       89 ms: Mark-Compact 26.2 (48.1) -> 15.3 (50.8) MB, pooled: 0 MB, 5.37 / 0.00 ms  (+ 3.8 ms in 151 steps since start of marking, biggest step 0.1 ms, walltime since start of marking 17 ms) (average mu = 0.897, current mu = 0.897) finalize incremental marking via stack guard; GC in old space requested').isolate,
      '0x7f9c30001000',
    );
    const main = parse('[5099:0x7f8c000]      121 ms: Mark-Compact 47.7 (64.9) -> 39.4 (74.1) MB, pooled: 0 MB, 10.07 / 0.00 ms  (+ 12.6 ms in 427 steps since start of marking, biggest step 0.2 ms, walltime since start of marking 51 ms) (average mu = 0.825, current mu = 0.825) allocation failure; Incremental marking forced finalization');
    assert.equal(main.isolate, '0x7f8c000');
    assert.equal(main.reason, 'allocation failure');
    assert.equal(main.collectorReason, 'Incremental marking forced finalization');
  });
});

// Node 26.12 (V8 14.6), verbatim from test/fixtures/gc/node26.txt.
const NODE26_SAMPLES = {
  scavenge: '[16896:0x28a4d000]       33 ms: Scavenge 5.3 (6.4) -> 4.9 (7.1) MB, pooled: 0.0 MB, 3.48 / 0.00 ms (average mu = 1.000, current mu = 1.000) allocation failure; ',
  duringSweeping: '[16896:0x28a4d000]      122 ms: Scavenge (during sweeping) 50.0 (62.1) -> 37.5 (61.4) MB, pooled: 2.8 MB, 1.93 / 0.00 ms (average mu = 0.854, current mu = 0.854) allocation failure; ',
  incremental:
    '[16896:0x28a4d000]      118 ms: Incremental Mark-Compact 47.5 (65.3) -> 33.1 (61.2) MB, pooled: 2.8 MB, 8.65 / 0.00 ms (+ 9.6 ms in 352 steps since start of marking, biggest step 0.2 ms, walltime since start of marking 43 ms) (average mu = 0.854, current mu = 0.854) allocation failure; Incremental marking forced finalization',
  reduce: '[16896:0x28a4d000]      281 ms: Mark-Compact (reduce) 4.5 (42.1) -> 4.4 (6.1) MB, pooled: 0.0 MB, 8.16 / 0.00 ms (average mu = 0.869, current mu = 0.400) heap profiler; GC in old space requested',
};

describe('parseTraceGcLine: Node 26 (V8 14.6)', () => {
  it('reads "Scavenge (during sweeping)" as a Scavenge with its qualifier', () => {
    const e = parse(NODE26_SAMPLES.duringSweeping);
    assert.equal(e.type, 'Scavenge');
    assert.deepEqual(e.qualifiers, ['during sweeping']);
    assert.equal(e.interleaved, false);
    assert.equal(e.reduce, false);
    assert.equal(e.heapBeforeMB, 50);
    assert.equal(e.committedAfterMB, 61.4);
    assert.equal(e.pooledMB, 2.8);
    assert.equal(e.pauseMs, 1.93);
    assert.equal(e.reason, 'allocation failure');
    assert.ok(isYoungGenerationGc(e.type) && !isFullGc(e.type));
  });

  it('reads "Incremental Mark-Compact" as a full GC with its marking', () => {
    const e = parse(NODE26_SAMPLES.incremental);
    assert.equal(e.type, 'Incremental Mark-Compact');
    assert.equal(e.qualifiers, undefined);
    assert.equal(e.pauseMs, 8.65);
    assert.deepEqual(e.incrementalMarking, { ms: 9.6, steps: 352, biggestStepMs: 0.2, wallMs: 43 });
    assert.deepEqual(e.mu, { average: 0.854, current: 0.854 });
    assert.equal(e.collectorReason, 'Incremental marking forced finalization');
    assert.ok(isFullGc(e.type) && !isYoungGenerationGc(e.type));
  });

  it('reads "pooled: 0.0 MB" and the single space before "(average mu"', () => {
    const e = parse(NODE26_SAMPLES.scavenge);
    assert.equal(e.pooledMB, 0);
    assert.equal(e.pauseMs, 3.48);
    assert.equal(e.externalMs, 0);
    assert.deepEqual(e.mu, { average: 1, current: 1 });
    assert.equal(parse(NODE26_SAMPLES.reduce).reduce, true);
    assert.deepEqual(parse(NODE26_SAMPLES.reduce).qualifiers, ['reduce']);
  });

  it('reads an incremental full GC that reduces memory (the form OOM reports print)', () => {
    const e = parse(NODE26_SAMPLES.incremental.replace('Incremental Mark-Compact ', 'Incremental Mark-Compact (reduce) '));
    assert.equal(e.type, 'Incremental Mark-Compact');
    assert.equal(e.reduce, true);
    assert.deepEqual(e.qualifiers, ['reduce']);
  });

  it('reads any parenthesised qualifier, known or not, in order', () => {
    const e = parse(NODE26_SAMPLES.scavenge.replace('Scavenge ', 'Scavenge (interleaved) (some_new state) (during sweeping) '));
    assert.equal(e.type, 'Scavenge');
    assert.equal(e.interleaved, true);
    assert.deepEqual(e.qualifiers, ['interleaved', 'some_new state', 'during sweeping']);
    assert.equal(e.heapBeforeMB, 5.3);
  });

  it('reads every timed line of the recordings: the counts grep gives', () => {
    // node26.txt: grep -c ' ms: ' → 55; ' ms: Scavenge [0-9]' → 41, ' ms: Scavenge (during sweeping) [0-9]' → 1,
    // ' ms: Incremental Mark-Compact [0-9]' → 1, ' ms: Mark-Compact [0-9]' → 1, '(reduce)' → 2, ' ms: Minor Mark-Sweep' → 9.
    const count = (file: string) => {
      const counts: Record<string, number> = {};
      let timed = 0;
      for (const line of linesOf(file)) {
        if (line.includes(' ms: ')) timed++;
        const e = parseTraceGcLine(line);
        if (e === null) continue;
        const key = e.type + (e.qualifiers ? ` (${e.qualifiers.join(') (')})` : '');
        counts[key] = (counts[key] ?? 0) + 1;
      }
      return { timed, counts };
    };
    assert.deepEqual(count('node26.txt'), {
      timed: 55,
      counts: { Scavenge: 41, 'Scavenge (during sweeping)': 1, 'Incremental Mark-Compact': 1, 'Mark-Compact': 1, 'Mark-Compact (reduce)': 2, 'Minor Mark-Sweep': 9 },
    });
    // node26-churn.txt: grep -c ' ms: ' → 357; ' ms: Scavenge [0-9]' → 333, '(during sweeping)' → 18, 'Incremental Mark-Compact' → 6.
    assert.deepEqual(count('node26-churn.txt'), { timed: 357, counts: { Scavenge: 333, 'Scavenge (during sweeping)': 18, 'Incremental Mark-Compact': 6 } });
  });
});

describe('parseTraceGcLine: variants and tolerance', () => {
  const scavenge = NODE22_SAMPLES[0]!;

  it('accepts both suffixes on one line (possible on Node 22)', () => {
    const e = parse(scavenge.replace('Scavenge ', 'Scavenge (interleaved) (reduce) '));
    assert.equal(e.type, 'Scavenge');
    assert.equal(e.interleaved, true);
    assert.equal(e.reduce, true);
    assert.equal(e.heapBeforeMB, 5.1);
  });

  it("accepts Node 24's [pid:isolate:N] prefix", () => {
    const e = parse(scavenge.replace('[14767:0xe451000]', '[14767:0xe451000:0]'));
    assert.equal(e.pid, 14767);
    assert.equal(e.isolate, '0xe451000');
  });

  it("accepts Windows' %p address (upper-case, no 0x)", () => {
    const e = parse('[26068:000001BB84659390]    35061 ms: Scavenge 1860.9 (2045.7) -> 1858.9 (2053.9) MB, 20.0 / 0.0 ms  (average mu = 0.356, current mu = 0.348) allocation failure; ');
    assert.equal(e.pid, 26068);
    assert.equal(e.isolate, '000001BB84659390');
    assert.equal(e.timeMs, 35061);
    assert.equal(e.pauseMs, 20);
  });

  it('tolerates a trailing \\r (CRLF logs) and any number of leading spaces', () => {
    const e = parse(`${NODE20_SAMPLES[2]!}\r`);
    assert.equal(e.collectorReason, 'GC in old space requested');
    assert.equal(parse(scavenge.replace('     1172 ms', ' 1172 ms')).timeMs, 1172);
    assert.equal(parse(scavenge.replace('     1172 ms', '123456789 ms')).timeMs, 123456789);
    assert.equal(parse(`${scavenge}\r`).reason, 'allocation failure');
  });

  it('keeps a reason without ";" whole (older output)', () => {
    const e = parse('[29:0x2faa1a0]     2237 ms: Scavenge 388.1 (398.1) -> 388.2 (400.6) MB, 0.6 / 0.0 ms  (average mu = 0.071, current mu = 0.000) allocation failure ');
    assert.equal(e.reason, 'allocation failure');
    assert.equal(e.collectorReason, '');
  });

  it('accepts an unknown capitalised type and keeps it as printed', () => {
    const e = parse(scavenge.replace('Scavenge', 'Young Gen Sweep'));
    assert.equal(e.type, 'Young Gen Sweep');
    assert.equal(e.pauseMs, 0.68);
    assert.equal(parse(scavenge.replace('Scavenge', 'Scavenger Two')).type, 'Scavenger Two');
  });

  it('returns null for anything else, without throwing', () => {
    const rejected = [
      '',
      'hello',
      '[INFO] Scavenge 1.0 (2.0) -> 1.0 (2.0) MB, 1.00 / 0.00 ms',
      '[1, 2, 3]',
      '[{"ms":12,"type":"Scavenge"}]',
      '[13664:0x343aecb0]     1703 ms: [HeapController] factor 4.0 based on mu=0.970, speed_ratio=0 (gc=0, mutator=9528)',
      '[13664:0x343aecb0] Memory allocator,       used:   5864 KB, available: 4237592 KB',
      '[13393:0x27e01c00]     1229 ms: pause=1.3 mutator=1222.6 gc=s reduce_memory=0',
      scavenge.slice(0, 60), // cut mid-line
      scavenge.slice(0, 120),
      scavenge.replace('0.68 / 0.00 ms', 'nan / 0.00 ms'),
      scavenge.replace('[14767:', '[:'),
      scavenge.replace('0xe451000', 'e451000'), // neither 0x nor a Windows-width address
      ` ${scavenge}`, // V8 lines start at the first column
      'x'.repeat(100_000),
      '\u0000\u0001[\uFFFD]\u00ff',
    ];
    for (const line of rejected) assert.equal(parseTraceGcLine(line), null, line.slice(0, 80));
  });
});
