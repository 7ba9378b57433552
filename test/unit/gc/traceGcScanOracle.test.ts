/**
 * The --trace-gc scanner held against the regular expression it replaced (kept here, verbatim, as
 * the oracle): every line of the recordings, each with a '\r', hand-made variants of every part of
 * the grammar, and seeded random edits of real lines (a character deleted, inserted or replaced,
 * the line cut short) must give the same event, or null for both.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseTraceGcLine } from '../../../src/core/gc/traceGcLine';

const N = String.raw`(\d+(?:\.\d*)?)`;
const TRACE_GC_LINE = new RegExp(
  String.raw`^\[(\d{1,10}):(0x[0-9a-fA-F]+|[0-9A-F]{8}|[0-9A-F]{16})(?::\d+)?\]` +
    String.raw` *${N} ms: ` +
    String.raw`(Scavenge|Mark-Compact|Minor Mark-Sweep|Incremental Mark-Compact|Minor Mark-Compact|Mark-sweep|[A-Z][A-Za-z -]*?)` +
    String.raw`((?: \([A-Za-z][\w -]*\))*) ` +
    String.raw`${N} \(${N}\) -> ${N} \(${N}\) MB, (?:pooled: ${N} MB, )?${N} \/ ${N} ms *` +
    String.raw`(?:\(\+ ${N} ms in (\d+) steps since start of marking, biggest step ${N} ms(?:, walltime since start of marking ${N} ms)?\) *)?` +
    String.raw`\(average mu = ${N}, current mu = ${N}\) *` +
    String.raw`([^;\r]*)(?:; *([^\r]*))?\r?$`,
);

/** The regular expression's event, as the parser before the scanner made it (mu compared by value). */
function oracle(line: string): Record<string, unknown> | null {
  const m = TRACE_GC_LINE.exec(line);
  if (m === null) return null;
  const trim = (s: string) => (s.length > 0 && s.endsWith(' ') ? s.trimEnd() : s);
  const suffixes = m[5]!;
  return {
    pid: Number(m[1]),
    isolate: m[2],
    timeMs: Number(m[3]),
    type: m[4],
    interleaved: suffixes.includes('(interleaved)'),
    reduce: suffixes.includes('(reduce)'),
    ...(suffixes.length > 0 ? { qualifiers: suffixes.slice(2, -1).split(') (') } : {}),
    heapBeforeMB: Number(m[6]),
    committedBeforeMB: Number(m[7]),
    heapAfterMB: Number(m[8]),
    committedAfterMB: Number(m[9]),
    pooledMB: m[10] === undefined ? null : Number(m[10]),
    pauseMs: Number(m[11]),
    externalMs: Number(m[12]),
    incrementalMarking: m[13] === undefined ? null : { ms: Number(m[13]), steps: Number(m[14]), biggestStepMs: Number(m[15]), wallMs: m[16] === undefined ? null : Number(m[16]) },
    mu: { average: Number(m[17]), current: Number(m[18]) },
    reason: trim(m[19]!),
    collectorReason: m[20] === undefined || m[20] === '' ? '' : trim(m[20]),
    source: 'trace-gc',
  };
}

function same(line: string): void {
  const event = parseTraceGcLine(line);
  const expected = oracle(line);
  assert.deepEqual(event === null ? null : { ...event, ...(event.qualifiers ? { qualifiers: [...event.qualifiers] } : {}) }, expected, JSON.stringify(line));
}

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'gc');
const recorded = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.txt'))
  .flatMap((f) => readFileSync(join(FIXTURES, f), 'utf8').split('\n'));

const HAND_MADE = [
  '[26068:000001BB84659390]    35061 ms: Scavenge 1860.9 (2045.7) -> 1858.9 (2053.9) MB, 20.0 / 0.0 ms  (average mu = 0.356, current mu = 0.348) allocation failure; ',
  '[26068:000001BB]    35061 ms: Young Gen Sweep (x_1 y-z) (b) 1860.9 (2045.7) -> 1858.9 (2053.9) MB, 20.0 / 0.0 ms  (average mu = 0.356, current mu = 0.348) allocation failure;    coll  ',
  '[26068:0x1:77]    1234567890123456789 ms: Scavenge  1.1234567890123456789 (2.) -> 3. (4.5) MB, pooled: 12345678901234567 MB, 0.1 / 0.2 ms(average mu = 1., current mu = 0.) réason ünicode ☃; x\r',
  '[1:0x1] 1 ms: Mark-Compact 1 (1) -> 1 (1) MB, 1 / 1 ms (+ 1 ms in 1 steps since start of marking, biggest step 1 ms) (average mu = 1, current mu = 1) r',
  '[1:0x1] 1 ms: Mark-Compact 1 (1) -> 1 (1) MB, 1 / 1 ms (+ 1 ms in 1 steps since start of marking, biggest step 1 ms, walltime since start of marking 3 ms)(average mu = 1, current mu = 1) r\r\r',
  '[1:0x1] 1 ms: Mark-Compact 1 (1) -> 1 (1) MB, 1 / 1 ms (average mu = 1, current mu = 1) r\rx',
  '[1:0x1] 1 ms: Mark-Compact 1 (1) -> 1 (1) MB, 1 / 1 ms (average mu = 1, current mu = 1) r;\rx',
  '[1:0x1] 1 ms: Mark-Compact 1 (1) -> 1 (1) MB, 1 / 1 ms (average mu = 1, current mu = 1) r\n;x',
  '[12345678901:0x1] 1 ms: Scavenge 1 (1) -> 1 (1) MB, 1 / 1 ms (average mu = 1, current mu = 1) r',
  '[1234567890:0xABCdef] 1 ms: Scavenge 1 (1) -> 1 (1) MB, 1 / 1 ms (average mu = 1, current mu = 1) r',
  '[1:0x1] 1 ms: S 1 (1) -> 1 (1) MB, 1 / 1 ms (average mu = 1, current mu = 1) r',
  '[1:0x1] 1 ms: Scavenge  1 (1) -> 1 (1) MB, 1 / 1 ms (average mu = 1, current mu = 1) r',
  '[1:0x1] 1 ms: Scavenge - (a) 1 (1) -> 1 (1) MB, 1 / 1 ms (average mu = 1, current mu = 1) r   ;   c \t ',
  '[1:0x1] 1 ms: Scavenge (interleaved) (reduce) (during sweeping) 1 (1) -> 1 (1) MB, 1 / 1 ms (average mu = 1, current mu = 1) r',
];

describe('scanTraceGcLine against the regular expression it replaced', () => {
  it('reads every recorded line as the expression did, with and without a trailing \\r', () => {
    for (const line of recorded) {
      same(line);
      same(`${line}\r`);
    }
    assert.ok(recorded.filter((l) => parseTraceGcLine(l) !== null).length > 1000, 'the recordings hold over a thousand GC lines');
  });

  it('reads every part of the grammar as the expression did: hand-made lines, cut and spaced at every character', () => {
    for (const line of HAND_MADE) {
      same(line);
      for (let k = 0; k <= line.length; k++) {
        same(line.slice(0, k));
        same(`${line.slice(0, k)} ${line.slice(k)}`);
        same(line.slice(0, k) + line.slice(k + 1));
      }
    }
  });

  it('agrees on 100,000 random edits of recorded lines', () => {
    let seed = 24;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = ' ()[]:;.0123456789x-+\rABCDEFabcdef,/MSmsGg';
    const timed = recorded.filter((l) => l.includes(' ms: ') && l.length < 2000);
    let parsed = 0;
    for (let n = 0; n < 100_000; n++) {
      const line = timed[Math.floor(random() * timed.length)]!;
      const at = Math.floor(random() * line.length);
      const ch = alphabet[Math.floor(random() * alphabet.length)]!;
      const op = random();
      const edited = op < 0.3 ? line.slice(0, at) + line.slice(at + 1) : op < 0.6 ? line.slice(0, at) + ch + line.slice(at) : op < 0.9 ? line.slice(0, at) + ch + line.slice(at + 1) : line.slice(0, at);
      same(edited);
      if (parseTraceGcLine(edited) !== null) parsed++;
    }
    assert.ok(parsed > 10_000, `edits that still parse are compared too (${parsed})`);
  });
});
