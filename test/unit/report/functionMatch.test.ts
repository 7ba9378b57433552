/**
 * Which function of A is which of B (functionMatch.ts): by name and file, then nearest line, one to
 * one. The cases an edit between two runs makes: a line added above a function (it moved), several
 * anonymous functions in one file (paired in order, nearest first), a function deleted, one renamed,
 * one moved far, and the same project in two checkouts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { alignByPosition, matchFunctions, type FunctionRef } from '../../../src/core/report/functionMatch';

const FILE = 'file:///app/server.js';
const fn = (name: string, line: number, column = 1, url = FILE): FunctionRef => ({ name, url, line, column });
const ANON = '(anonymous)';

/** "name@line:column" of each function's counterpart in B (null: gone in B). */
function partnersOf(match: ReturnType<typeof matchFunctions>, a: FunctionRef[]): (string | null)[] {
  return a.map((f) => {
    const p = match.counterpart('base', f);
    return p ? `${p.name}@${p.line}:${p.column}` : null;
  });
}

describe('matchFunctions', () => {
  it('a line added above a function: the same function, moved; the ones above it stay', () => {
    const a = [fn('main', 1), fn('parse', 5), fn('handle', 12), fn('render', 30)];
    const b = [fn('main', 1), fn('parse', 5), fn('handle', 13), fn('render', 31)];
    const match = matchFunctions(a, b);
    assert.deepEqual(partnersOf(match, a), ['main@1:1', 'parse@5:1', 'handle@13:1', 'render@31:1']);
    assert.equal(match.identity('base', a[2]!), match.identity('other', b[2]!), 'one identity for both sides');
    assert.notEqual(match.identity('base', a[2]!), match.identity('base', a[3]!));
    assert.deepEqual(
      match.moves().map((m) => `${m.base.name} ${m.base.line}→${m.other.line}`),
      ['handle 12→13', 'render 30→31'],
      'only the functions below the edit moved',
    );
  });

  it('several anonymous functions in one file: one to one by nearest line, not all onto one', () => {
    // A line added at the top: every function one line lower. Exact positions would pair A's 11 with
    // B's 11 (really A's 10) and leave the rest crossed; the whole block moves together instead.
    const a = [fn(ANON, 10, 20), fn(ANON, 11, 20), fn(ANON, 12, 5), fn('named', 40)];
    const b = [fn(ANON, 11, 20), fn(ANON, 12, 20), fn(ANON, 13, 5), fn('named', 41)];
    const match = matchFunctions(a, b);
    assert.deepEqual(partnersOf(match, a), [`${ANON}@11:20`, `${ANON}@12:20`, `${ANON}@13:5`, 'named@41:1']);
    const ids = a.map((f) => match.identity('base', f));
    assert.equal(new Set(ids).size, 4, 'every anonymous function keeps its own identity');
    assert.equal(match.moves().length, 4);
  });

  it('anonymous functions under a 30-line edit pair through the shift of the named ones around them', () => {
    // 30 lines added above `handler`, and its last callback (2 lines) deleted. By raw distance the
    // two callbacks left would pair with A's last two (30 + 27 lines off beats 30 + 30); the
    // named neighbours say the code there moved 30 lines, so they pair with A's first two.
    const a = [fn('setup', 1), fn('handler', 10), fn(ANON, 12), fn(ANON, 15), fn(ANON, 18), fn('teardown', 25)];
    const b = [fn('setup', 1), fn('handler', 40), fn(ANON, 42), fn(ANON, 45), fn('teardown', 53)];
    assert.deepEqual(partnersOf(matchFunctions(a, b), a), ['setup@1:1', 'handler@40:1', `${ANON}@42:1`, `${ANON}@45:1`, null, 'teardown@53:1']);
    const raw = alignByPosition(a.slice(2, 5), b.slice(2, 4), (f) => f.line);
    assert.deepEqual(raw, [[1, 0], [2, 1]], 'without the shift, nearest lines pick the wrong two');
  });

  it('two anonymous functions on one line are told apart by column', () => {
    const a = [fn(ANON, 7, 18), fn(ANON, 7, 40)];
    const b = [fn(ANON, 8, 18), fn(ANON, 8, 40)];
    assert.deepEqual(partnersOf(matchFunctions(a, b), a), [`${ANON}@8:18`, `${ANON}@8:40`]);
  });

  it('a deleted anonymous function is gone; its neighbours still pair with themselves', () => {
    // The callback at line 20 (3 lines) was deleted: the one at 30 is now at 27.
    const a = [fn(ANON, 10), fn(ANON, 20), fn(ANON, 30)];
    const b = [fn(ANON, 10), fn(ANON, 27)];
    const match = matchFunctions(a, b);
    assert.deepEqual(partnersOf(match, a), [`${ANON}@10:1`, null, `${ANON}@27:1`]);
    assert.match(match.identity('base', a[1]!), /^A/, 'gone in B: an identity of its own');
  });

  it('a deleted named function is gone, and nothing else takes its place', () => {
    const a = [fn('main', 1), fn('legacy', 5), fn('handle', 20)];
    const b = [fn('main', 1), fn('handle', 10)];
    const match = matchFunctions(a, b);
    assert.deepEqual(partnersOf(match, a), ['main@1:1', null, 'handle@10:1']);
    assert.equal(match.counterpart('other', b[1]!)?.name, 'handle');
  });

  it('a renamed function is a new name: gone in B and new in B, even at the same position', () => {
    const a = [fn('main', 1), fn('work', 10)];
    const b = [fn('main', 1), fn('doWork', 10)];
    const match = matchFunctions(a, b);
    assert.equal(match.counterpart('base', a[1]!), null);
    assert.equal(match.counterpart('other', b[1]!), null);
    assert.notEqual(match.identity('base', a[1]!), match.identity('other', b[1]!));
    assert.deepEqual(match.moves(), []);
  });

  it('a uniquely named function moved far is still the same function', () => {
    const a = [fn('main', 1), fn('helper', 10)];
    const b = [fn('main', 1), fn('helper', 900)];
    const match = matchFunctions(a, b);
    assert.equal(match.counterpart('base', a[1]!)?.line, 900);
    assert.deepEqual(match.moves().map((m) => m.other.name), ['helper']);
  });

  it('same-named methods: one deleted, one added far away, the one in between kept', () => {
    // `get` of class X (line 10) deleted, class Y's `get` (500 → 495) kept, class Z's `get` (800) added.
    const a = [fn('start', 1), fn('get', 10), fn('get', 500), fn('end', 600)];
    const b = [fn('start', 1), fn('get', 495), fn('get', 800), fn('end', 595)];
    const match = matchFunctions(a, b);
    assert.deepEqual(partnersOf(match, a), ['start@1:1', null, 'get@495:1', 'end@595:1']);
    assert.equal(match.counterpart('other', b[2]!), null, 'the get at 800 is new');
  });

  it('the same name in two files are two functions', () => {
    const a = [fn('handle', 5, 1, 'file:///app/a.js'), fn('handle', 5, 1, 'file:///app/b.js')];
    const b = [fn('handle', 6, 1, 'file:///app/a.js')];
    const match = matchFunctions(a, b);
    assert.deepEqual(partnersOf(match, a), ['handle@6:1', null]);
  });

  it('the same project in two checkouts: files are matched under each run’s working folder', () => {
    const a = [fn('handle', 12, 1, 'file:///home/me/main/src/server.js'), fn('x', 1, 1, 'node:internal/timers')];
    const b = [fn('handle', 13, 1, 'file:///home/me/feature/src/server.js'), fn('x', 1, 1, 'node:internal/timers')];
    assert.deepEqual(partnersOf(matchFunctions(a, b), a), [null, 'x@1:1'], 'without the folders the paths differ');
    const match = matchFunctions(a, b, { base: '/home/me/main', other: '/home/me/feature/' });
    assert.deepEqual(partnersOf(match, a), ['handle@13:1', 'x@1:1']);
    assert.deepEqual(match.moves().map((m) => m.other.url), ['file:///home/me/feature/src/server.js']);
  });

  it('in a file known to be the same in both runs, only the same position matches', () => {
    // Node's own files under the same Node: the `get` sampled in B is another of the file's many getters.
    const internal = 'node:internal/streams/readable';
    const a = [fn('get', 1085, 5, internal), fn('read', 647, 35, internal), fn('handle', 12)];
    const b = [fn('get', 131, 7, internal), fn('read', 647, 35, internal), fn('handle', 13)];
    const unchanged = (url: string) => url.startsWith('node:');
    const match = matchFunctions(a, b, { unchanged });
    assert.deepEqual(partnersOf(match, a), [null, 'read@647:35', 'handle@13:1']);
    assert.deepEqual(match.moves().map((m) => m.other.name), ['handle']);
    assert.deepEqual(partnersOf(matchFunctions(a, b), a), ['get@131:7', 'read@647:35', 'handle@13:1'], 'not known to be the same: the name decides');
  });

  it('frames without a file (native, GC, idle) match by name', () => {
    const a = [fn('(garbage collector)', 0, 0, ''), fn('(program)', 0, 0, ''), fn('sort', 0, 0, '')];
    const b = [fn('(garbage collector)', 0, 0, ''), fn('sort', 0, 0, '')];
    assert.deepEqual(partnersOf(matchFunctions(a, b), a), ['(garbage collector)@0:0', null, 'sort@0:0']);
  });

  it('duplicates in the input count once', () => {
    const a = [fn('main', 1), fn('main', 1)];
    const b = [fn('main', 2)];
    assert.equal(matchFunctions(a, b).counterpart('base', a[1]!)?.line, 2);
  });
});

describe('alignByPosition', () => {
  const at = (lines: number[]) => lines.map((line) => fn(ANON, line));
  const same = (f: FunctionRef) => f.line;

  it('keeps source order and pairs as many as it can, nearest first', () => {
    assert.deepEqual(alignByPosition(at([10, 11]), at([11, 12]), same), [[0, 0], [1, 1]]);
    assert.deepEqual(alignByPosition(at([10, 20, 30]), at([21]), same), [[1, 0]]);
    assert.deepEqual(alignByPosition(at([5]), at([1, 6, 40]), same), [[0, 1]]);
    assert.deepEqual(alignByPosition([], at([1]), same), []);
  });

  it('a group too large for the full alignment (4,100 × 4,099) still pairs a shift and a deletion', () => {
    // A line added at the top (all one lower), and the callback at index 2,000 deleted.
    const a = Array.from({ length: 4100 }, (_, i) => fn(ANON, 10 + i * 3));
    const b = a.filter((_, i) => i !== 2000).map((f) => ({ ...f, line: f.line + 1 }));
    const pairs = alignByPosition(a, b, same);
    assert.equal(pairs.length, 4099);
    assert.ok(pairs.every(([i, j]) => b[j]!.line === a[i]!.line + 1), 'every pair is the function one line lower');
    assert.ok(!pairs.some(([i]) => i === 2000), 'the deleted one has no partner');
  });

  it('never pairs starts further apart than the drift limit', () => {
    assert.deepEqual(alignByPosition(at([10, 20]), at([700, 900]), same), []);
    assert.deepEqual(alignByPosition(at([10, 20]), at([700, 900]), (f) => f.line + 690), [[0, 0], [1, 1]], 'unless the expected line says so');
  });
});
