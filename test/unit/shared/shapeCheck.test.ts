/**
 * The shape checks of the run folder's JSON files: a file of the wrong shape is one line naming the
 * field, never a TypeError later; unknown fields pass; nesting is bounded without recursion.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { arrayOf, nullable, num, oneOf, optional, parseCheckedJson, recordOf, shape, str, tooDeep } from '../../../src/shared/model/shapeCheck';
import { checkSession } from '../../../src/shared/model/sessionCheck';
import { checkLoadSummary, checkSummary } from '../../../src/shared/model/summaryCheck';
import { emptySummary } from '../../../src/shared/model/summary';

const point = shape<{ x: number; y: number | null; tag?: string }>({ x: num, y: nullable(num), tag: optional(str) });

describe('shape checks', () => {
  it('names the first field that does not fit', () => {
    assert.equal(point({ x: 1, y: null }, ''), null);
    assert.equal(point({ x: 1, y: 2, tag: 'a', extra: [[[]]] }, ''), null, 'unknown fields pass');
    assert.equal(point({ x: '1', y: 2 }, ''), 'x is a string, not a number');
    assert.equal(point({ y: 2 }, ''), 'x is missing');
    assert.equal(point(null, ''), 'the file is null, not an object');
    assert.equal(point([], ''), 'the file is an array, not an object');
    assert.equal(point(5, 'load'), 'load is a number, not an object');
    assert.equal(arrayOf(point)([{ x: 1, y: 1 }, { x: 1, y: 'no' }], 'points'), 'points[1].y is a string, not a number');
    assert.equal(recordOf(num)({ a: 1, b: true }, 'byReason'), 'byReason.b is true, not a number');
    assert.equal(oneOf('a', 'b')('c', 'kind'), 'kind is "c", not one of "a", "b"');
    assert.equal(num(Number.POSITIVE_INFINITY, 'n'), 'n is Infinity, not a number');
  });

  it('measures nesting without recursion, 100,000 levels included', () => {
    const depth = 100_000;
    const deep = JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
    assert.equal(tooDeep(deep), true);
    assert.equal(tooDeep({ a: [{ b: { c: [1, 2, 3] } }] }), false);
    assert.equal(tooDeep(JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`)), true);
  });

  it('parses, bounds the depth and checks, each problem one line with the file name', () => {
    assert.deepEqual(parseCheckedJson('{"x":1,"y":null}', 'p.json', point), { value: { x: 1, y: null } });
    assert.deepEqual(parseCheckedJson('{"x":1,', 'p.json', point), { problem: 'p.json: not valid JSON (cut short?)' });
    assert.deepEqual(parseCheckedJson('', 'p.json', point), { problem: 'p.json: the file is empty' });
    assert.deepEqual(parseCheckedJson('[]', 'p.json', point), { problem: 'p.json: the file is an array, not an object' });
    const deep = `{"x":1,"y":null,"deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    assert.deepEqual(parseCheckedJson(deep, 'p.json', point), { problem: 'p.json: nested deeper than 64 levels, so not a file V8 Lens wrote' });
  });
});

describe('the run folder schemas', () => {
  it('summary.json: an empty summary fits; what the issue tried does not', () => {
    assert.equal(checkSummary(emptySummary({ kind: 'run', path: '/r' }), ''), null);
    assert.equal(checkSummary([], ''), 'the file is an array, not an object');
    assert.match(checkSummary({ ...emptySummary({ kind: 'run', path: '/r' }), cpu: 5 }, '')!, /^cpu is a number, not an object$/);
  });

  it('summary.json: a profile named by a path is refused (it would be read outside cpu/)', () => {
    const cpu = { profile: 'CPU.1.cpuprofile', durationMs: 1, sampleCount: 1, sampleIntervalMs: 1, functions: [], lines: [], pseudo: { gcMs: 0, idleMs: 0, programMs: 0 }, profiles: [] };
    const summary = (profile: string) => ({ ...emptySummary({ kind: 'run', path: '/r' }), cpu: { ...cpu, profile } });
    assert.equal(checkSummary(summary('CPU.1.cpuprofile'), ''), null);
    for (const bad of ['../../../../etc/passwd', '/dev/zero', '..', 'a\\b', 'x\0y', '']) {
      assert.match(checkSummary(summary(bad), '')!, /^cpu\.profile is ".*": a path, not the name of a file in cpu\/$/, bad);
    }
  });

  it('session.json: {"launch":5} names what is wrong', () => {
    assert.equal(checkSession({ launch: 5 }, ''), 'schemaVersion is missing');
  });

  it('load.json: null figures are allowed, a string count is not', () => {
    const load = { url: 'http://127.0.0.1:1/', connections: 1, rate: null, warmupSeconds: 0, durationSeconds: 1, figures: null, failedRequests: 0, error: 'x', gcInWindow: null };
    assert.equal(checkLoadSummary(load, ''), null);
    assert.equal(checkLoadSummary({ ...load, failedRequests: '3' }, ''), 'failedRequests is a string, not a number');
  });
});
