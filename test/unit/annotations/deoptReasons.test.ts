import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DEOPT_REASONS, FEEDBACK_OPERATION_PLACEHOLDER, FEEDBACK_OPERATIONS } from '../../../src/core/annotations/deoptReasonTable';
import { explainDeoptReason } from '../../../src/core/annotations/deoptReasons';

const FIXTURE_DIRS = [join(__dirname, '..', '..', 'fixtures')];

function filesUnder(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (name === 'node_modules') continue;
    if (statSync(full).isDirectory()) filesUnder(full, out);
    else if (/\.(log|txt|json)$/.test(name)) out.push(full);
  }
  return out;
}

/** V8 writes the code-deopt reason as a C string: `\xNN` are UTF-8 bytes (plain ASCII in practice). */
const unescapeField = (s: string): string => s.replace(/\\x([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** Every (reason, kind) the repo's recorded logs, code traces and expectations contain. */
function fixtureReasons(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of FIXTURE_DIRS.flatMap((d) => filesUnder(d))) {
    const text = readFileSync(file, 'utf8');
    for (const line of text.split('\n')) {
      if (line.startsWith('code-deopt,')) {
        const f = line.split(',');
        found.set(unescapeField(f[f.length - 1] ?? '').trim(), f[6] ?? '');
      }
    }
    for (const m of text.matchAll(/\(kind: ([^,]+), reason: ([^)]*)\)/g)) found.set(m[2] ?? '', m[1] ?? '');
    if (file.endsWith('.json')) for (const m of text.matchAll(/"reason": ?"([^"]*)"/g)) found.set(m[1] ?? '', 'deopt-eager');
  }
  return found;
}

// V8's DEOPTIMIZE_REASON_LIST / LAZY_DEOPTIMIZE_REASON_LIST texts (src/deoptimizer/deoptimize-reason.h)
// across Node 18–24 and V8 head.
const V8_EAGER_REASONS = [
  'array buffer was detached',
  'array buffer was detached or immutable',
  'the array length changed',
  'BigInt too big',
  'const tracking let constness invalidated',
  'failed to grow elements store',
  "copy-on-write array's elements changed",
  '%_DeoptimizeNow',
  'deprecated map',
  'division by zero',
  'length is greater than the maximum for fast elements array',
  'hole',
  'hole or undefined',
  'instance migration failed',
  'Insufficient type feedback for array literal',
  'Insufficient type feedback for binary operation',
  'Insufficient type feedback for call',
  'Insufficient type feedback for compare operation',
  'Insufficient type feedback for construct',
  'Insufficient type feedback for for-in',
  'Insufficient type feedback for generic global access',
  'Insufficient type feedback for generic keyed access',
  'Insufficient type feedback for generic named access',
  'Insufficient type feedback for instanceof',
  'Insufficient type feedback for object literal',
  'Insufficient type feedback for typeof',
  'Insufficient type feedback for unary operation',
  'unexpected name in keyed access',
  'lost precision',
  'lost precision or NaN',
  'minus zero',
  'NaN',
  'no cache',
  'no initial element',
  'not a BigInt',
  'not a BigInt64',
  'not a heap number',
  'not a JavaScript object',
  'not a JavaScript object, Null or Undefined',
  'not a Number',
  'not a Number or Boolean',
  'not a Number or Undefined',
  'not a Number or Oddball',
  'not a Smi',
  'not a String',
  'not a sequential one-byte String',
  'not a String or a string wrapper',
  'not a string wrapper',
  'not a String or oddball',
  'not a Symbol',
  'not AdditiveSafeInteger',
  'not an array index',
  'not a detectable receiver',
  'not int32',
  'not unsigned int32',
  "exit from OSR'd inner loop",
  'out of bounds',
  'overflow',
  'prepare for on stack replacement (OSR)',
  'Smi',
  'Storing to a constant field',
  'write to constant field',
  'Result string larger than String::kMaxLength',
  'SuspendGenerator is in a dead branch',
  'unexpected context extension',
  '(unknown)',
  'First use of catch block',
  'value mismatch',
  'wrong call target',
  'wrong call target constructor',
  'wrong enum indices',
  'wrong feedback cell',
  'wrong instance type',
  'wrong map',
  'map changed during operation',
  'missing map',
  'wrong handler',
  'IC transitioned to monomorphic',
  'IC transitioned to megamorphic',
  'wrong name',
  'wrong value',
];
const V8_LAZY_REASONS = [
  'dependent map was deprecated',
  'dependent prototype chain changed',
  'dependent property cell changed',
  'dependent field type constness changed',
  'dependent field type changed',
  'dependent field representation changed',
  'dependent initial map changed',
  'dependent allocation site tenuring changed',
  'dependent allocation site transition changed',
  'dependent script context slot property changed',
  'dependent context cell state changed',
  'dependent empty context extension changed',
  'embedded weak objects cleared',
  'JS debugger attached',
  'for testing',
  'exception with omitted catch handler',
  'marked due to eager deopt',
  'value in stack frame was materialized',
  'code dependencies',
];

const HARMLESS_OSR = ['prepare for on stack replacement (OSR)', "exit from OSR'd inner loop", 'OSR early exit', 'PrepareForOnStackReplacement', 'OSREarlyExit'];

describe('explainDeoptReason', () => {
  it("knows every reason in the repo's recorded logs, code traces and expectations", () => {
    const found = fixtureReasons();
    for (const r of ['wrong map', 'not a Smi', 'Insufficient type feedback for binary operation', 'code dependencies', 'dependent field type constness changed']) {
      assert.ok(found.has(r), `fixtures should contain ${r}`);
    }
    for (const [reason, kind] of found) {
      const info = explainDeoptReason(reason, kind);
      assert.equal(info.known, true, `${kind} ${reason}`);
      assert.ok(info.short.length <= 28 && info.explanation !== '' && info.fix !== '', reason);
    }
  });

  it("knows every reason in V8's eager and lazy lists", () => {
    for (const r of V8_EAGER_REASONS) assert.equal(explainDeoptReason(r, 'deopt-eager').known, true, r);
    for (const r of V8_LAZY_REASONS) assert.equal(explainDeoptReason(r, 'dependency-change').known, true, r);
  });

  it('explains the common reasons in plain words', () => {
    const wrongMap = explainDeoptReason('wrong map', 'deopt-eager');
    assert.equal(wrongMap.short, 'wrong map');
    assert.equal(wrongMap.harmless, false);
    assert.match(wrongMap.explanation, /shape \(hidden class\)/);
    assert.match(wrongMap.fix, /delete/);
    const smi = explainDeoptReason('not a Smi', 'deopt-eager');
    assert.equal(smi.short, 'not a Smi');
    assert.equal(smi.harmless, false);
    assert.match(smi.explanation, /small integers/);
    assert.equal(explainDeoptReason('out of bounds').short, 'out of bounds');
    assert.equal(explainDeoptReason('hole').short, 'array hole');
    assert.equal(explainDeoptReason('Smi').short, 'unexpected Smi');
    assert.equal(explainDeoptReason('not a heap object').short, 'unexpected Smi');
    assert.equal(explainDeoptReason('not a heap number').short, 'not a heap number');
    assert.equal(explainDeoptReason('not a Number or Oddball').short, 'not a number');
    assert.equal(explainDeoptReason('wrong call target constructor').short, 'wrong call target');
  });

  it('treats every insufficient-type-feedback variant as one harmless warm-up entry, naming the operation', () => {
    const variants = [
      ...V8_EAGER_REASONS.filter((r) => r.startsWith('Insufficient type feedback')),
      'Insufficient type feedback for LHS of binary operation',
      'Insufficient type feedback for some future operation',
      'INSUFFICIENT TYPE FEEDBACK FOR CALL',
      'InsufficientTypeFeedbackForCall',
    ];
    for (const r of variants) {
      const info = explainDeoptReason(r, 'deopt-soft');
      assert.deepEqual([info.known, info.harmless, info.short], [true, true, 'insufficient feedback'], r);
      assert.ok(info.explanation.length <= 240, r);
    }
    assert.match(explainDeoptReason('Insufficient type feedback for generic named access').explanation, /property access \(obj\.name\)/);
    assert.match(explainDeoptReason('Insufficient type feedback for binary operation').explanation, /arithmetic/);
    assert.match(explainDeoptReason('Insufficient type feedback for LHS of binary operation').explanation, /arithmetic/);
    assert.match(explainDeoptReason('InsufficientTypeFeedbackForCall').explanation, /function call/);
    assert.match(explainDeoptReason('Insufficient type feedback for some future operation').explanation, /this operation/);
    for (const [words, phrase] of Object.entries(FEEDBACK_OPERATIONS)) {
      const e = explainDeoptReason(`Insufficient type feedback for ${words}`).explanation;
      assert.ok(e.includes(phrase) && !e.includes(FEEDBACK_OPERATION_PLACEHOLDER), words);
      assert.ok(e.length <= 240, words);
    }
  });

  it('treats OSR entry and exit as harmless', () => {
    for (const r of HARMLESS_OSR) {
      const info = explainDeoptReason(r, 'deopt-eager');
      assert.deepEqual([info.known, info.harmless], [true, true], r);
      assert.match(info.short, /^OSR/);
    }
  });

  it('marks only warm-up feedback and OSR as harmless', () => {
    for (const r of [...V8_EAGER_REASONS, ...V8_LAZY_REASONS]) {
      const expected = /^insufficient type feedback/i.test(r) || HARMLESS_OSR.includes(r);
      assert.equal(explainDeoptReason(r).harmless, expected, r);
    }
    assert.equal(DEOPT_REASONS.filter((e) => e.harmless).length, 3);
  });

  it('says a lazy deopt was caused elsewhere, also when V8 did not name the cause', () => {
    for (const kind of ['dependency-change', 'deopt-lazy']) {
      for (const reason of ['(unknown)', 'unknown', '', 'code dependencies', 'dependency change']) {
        const info = explainDeoptReason(reason, kind);
        assert.equal(info.known, true, `${kind} ${reason}`);
        assert.equal(info.short, 'dependency changed elsewhere');
        assert.match(info.explanation, /elsewhere/);
        assert.match(info.explanation, /not record/);
      }
    }
    // Node 24 names the cause.
    const named = explainDeoptReason('dependent field type constness changed', 'dependency-change');
    assert.equal(named.short, 'constant field rewritten');
    assert.match(named.explanation, /elsewhere/);
    assert.equal(explainDeoptReason('dependent prototype chain changed', 'deopt-lazy').short, 'prototype changed elsewhere');
    assert.equal(explainDeoptReason('field type changed', 'dependency-change').short, 'field type changed elsewhere');
    assert.equal(explainDeoptReason('prototype-check', 'dependency-change').short, 'prototype changed elsewhere');
    // A future "dependent …" reason still reads as a change elsewhere.
    assert.equal(explainDeoptReason('dependent something new changed', 'dependency-change').short, 'dependency changed elsewhere');
    // An unnamed lazy reason gets the lazy text but is not "known".
    const odd = explainDeoptReason('some brand new lazy reason text', 'deopt-lazy');
    assert.equal(odd.known, false);
    assert.match(odd.explanation, /elsewhere/);
    assert.ok(odd.short.length <= 28);
    // Without a lazy kind, "(unknown)" is just "no reason recorded".
    const plain = explainDeoptReason('(unknown)', 'deopt-eager');
    assert.deepEqual([plain.known, plain.short, plain.harmless], [true, 'no reason recorded', false]);
  });

  it('falls back for reasons it does not know', () => {
    const info = explainDeoptReason('A Completely New Reason That V8 Invented Yesterday', 'deopt-eager');
    assert.equal(info.known, false);
    assert.equal(info.harmless, false);
    assert.equal(info.short, 'a completely new reason tha…');
    assert.equal(info.short.length, 28);
    assert.match(info.explanation, /^V8 threw away optimized code here; the reason is V8's own words: "A Completely New Reason That V8 Invented Yesterday"/);
    assert.ok(info.fix.length > 0);
    assert.equal(explainDeoptReason('Brand new').short, 'brand new');
    const long = explainDeoptReason('x'.repeat(1000));
    assert.ok(long.short.length <= 28 && long.explanation.length <= 240);
  });

  it('matches case-insensitively, ignoring extra spaces, punctuation and C++ enum spellings', () => {
    for (const r of ['Wrong map', 'WRONG MAP', '  wrong   map ', 'wrong map.', 'WrongMap', 'reason: wrong map']) {
      assert.equal(explainDeoptReason(r).short, 'wrong map', r);
    }
    for (const r of ['NOT A SMI', 'Not a smi', 'NotASmi']) assert.equal(explainDeoptReason(r).short, 'not a Smi', r);
    assert.equal(explainDeoptReason('CowArrayElementsChanged').short, 'array literal modified');
    assert.equal(explainDeoptReason('TransitionedToMonomorphicIC').short, 'inline cache changed');
    assert.equal(explainDeoptReason('not detectable receiver').short, 'not an object');
    assert.equal(explainDeoptReason('Array buffer was detached').short, 'buffer detached');
    assert.equal(explainDeoptReason('DIVISION BY ZERO').short, 'division by zero');
    assert.equal(explainDeoptReason('nan').short, 'NaN');
  });

  it('never throws and returns a fresh object each time', () => {
    const weird: unknown[] = [undefined, null, 42, {}, { toString: () => { throw new Error('no'); } }];
    for (const w of weird) {
      const info = explainDeoptReason(w as string, w as string);
      assert.equal(typeof info.short, 'string');
      assert.ok(info.short.length > 0 && info.short.length <= 28);
    }
    const a = explainDeoptReason('wrong map');
    a.short = 'changed';
    assert.equal(explainDeoptReason('wrong map').short, 'wrong map');
  });
});

describe('DEOPT_REASONS', () => {
  it('has short labels, and short non-empty explanations and fixes', () => {
    for (const e of DEOPT_REASONS) {
      const name = e.match[0] ?? e.prefix?.[0] ?? e.short;
      assert.ok(e.short.length > 0 && e.short.length <= 28, `short of ${name}: ${e.short}`);
      assert.ok(e.explanation.trim().length > 0 && e.explanation.length <= 240, `explanation of ${name} (${e.explanation.length})`);
      assert.ok(e.fix.trim().length > 0 && e.fix.length <= 240, `fix of ${name} (${e.fix.length})`);
      assert.ok(e.match.length + (e.prefix?.length ?? 0) > 0, `${name} matches nothing`);
      for (const m of e.match) {
        assert.equal(m, m.toLowerCase().replace(/\s+/g, ' ').trim(), `${m} is lower case, trimmed, single-spaced`);
      }
      for (const p of e.prefix ?? []) assert.equal(p, p.toLowerCase().replace(/\s+/g, ' ').trimStart(), `prefix ${p}`);
    }
  });

  it('gives every exact string (also with punctuation removed) to one entry only', () => {
    const exact = new Map<string, string>();
    const compact = new Map<string, string>();
    DEOPT_REASONS.forEach((e, i) => {
      for (const m of e.match) {
        assert.ok(!exact.has(m), `"${m}" claimed by ${exact.get(m)} and ${e.short}`);
        exact.set(m, e.short);
        const c = m.replace(/[^a-z0-9]/g, '');
        const owner = compact.get(c);
        assert.ok(owner === undefined || owner === String(i), `"${m}" collides with another entry as ${c}`);
        compact.set(c, String(i));
      }
    });
  });

  it('finds each entry by each of its own match strings', () => {
    for (const e of DEOPT_REASONS) {
      for (const m of e.match) {
        const info = explainDeoptReason(m);
        assert.equal(info.short, e.short, m);
        assert.equal(info.known, true, m);
      }
    }
  });
});
