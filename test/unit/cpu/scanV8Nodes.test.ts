/**
 * The byte-level reader for V8's own `nodes` layout must give exactly what `JSON.parse` +
 * readModernNodes give, and hand anything else back (null) rather than guess.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CpuProfileError } from '../../../src/core/cpu/cpuProfileError';
import { readModernNodes } from '../../../src/core/cpu/readModernNodes';
import { scanV8Nodes } from '../../../src/core/cpu/scanV8Nodes';
import { CPU_FIXTURES, SPEEDSCOPE_DIR } from './cpuTestHelpers';

/** The part a fast read covers: everything before the trailing sample arrays. */
function head(text: string): number {
  return text.indexOf(',"samples":[');
}

function viaJson(text: string) {
  const warnings: string[] = [];
  const flat = readModernNodes((JSON.parse(text) as { nodes: unknown[] }).nodes, 'x', warnings);
  return { flat, warnings };
}

function viaScan(text: string) {
  const warnings: string[] = [];
  const scanned = scanV8Nodes(text, head(text), 'x', warnings);
  return scanned && { ...scanned, warnings };
}

function sameTree(text: string) {
  const fast = viaScan(text);
  assert.ok(fast, 'the fast reader accepts it');
  const slow = viaJson(text);
  assert.deepEqual(fast.flat.nodes, slow.flat.nodes);
  assert.deepEqual(fast.flat.frames, slow.flat.frames);
  assert.deepEqual([...fast.flat.nodeFrames], [...slow.flat.nodeFrames]);
  assert.deepEqual([...fast.flat.parent], [...slow.flat.parent]);
  assert.deepEqual([...fast.flat.edgeChild.subarray(0, fast.flat.edgeCount)], [...slow.flat.edgeChild.subarray(0, slow.flat.edgeCount)]);
  assert.deepEqual(fast.warnings, slow.warnings);
  return fast;
}

const node20 = readFileSync(join(CPU_FIXTURES, 'node20-work.cpuprofile'), 'utf8');
const chrome65 = readFileSync(join(SPEEDSCOPE_DIR, 'chrome65-sucrase.cpuprofile'), 'utf8');

/** A node20 profile with one node's text replaced. */
function edited(find: string, replace: string): string {
  assert.ok(node20.includes(find), find);
  return node20.replace(find, replace);
}

describe('scanV8Nodes', () => {
  it('reads a real Node 20 profile (children before positionTicks) like JSON.parse does', () => {
    const fast = sameTree(node20);
    const raw = JSON.parse(node20) as Record<string, unknown>;
    assert.deepEqual(fast.members, { startTime: raw['startTime'], endTime: raw['endTime'] });
  });

  it('reads a real Chrome 65 profile (positionTicks before children, many frames at -1)', () => {
    sameTree(chrome65);
  });

  it('keeps escapes, braces and quotes inside names intact', () => {
    const text = edited('"functionName":"fib"', '"functionName":"f\\"i}b{\\\\[x]\\u00e9"');
    const fast = sameTree(text);
    assert.ok(fast.flat.frames.some((f) => f.functionName === 'f"i}b{\\[x]é'));
  });

  it('counts malformed ticks and unknown children like the JSON path', () => {
    let text = edited('"positionTicks":[{"line":', '"positionTicks":[{"line":0,"ticks":1},{"line":');
    text = text.replace('"children":[', '"children":[987654,');
    const fast = sameTree(text);
    assert.equal(fast.warnings.length, 2);
  });

  it('reports the same errors as the JSON path', () => {
    const dupe = node20.replace('{"id":2,', '{"id":1,');
    assert.throws(() => viaScan(dupe), (e: Error) => e instanceof CpuProfileError && /node id 1 appears twice/.test(e.message));
    assert.throws(() => viaJson(dupe), /node id 1 appears twice/);
    const badFrame = edited('"lineNumber":-1', '"lineNumber":"x"');
    assert.throws(() => viaScan(badFrame), /node id 1 has a missing or malformed callFrame/);
    assert.throws(() => viaJson(badFrame), /node id 1 has a missing or malformed callFrame/);
  });

  it('hands back anything outside the exact layout', () => {
    const cases: Array<[string, string]> = [
      ['pretty-printed', JSON.stringify(JSON.parse(node20), null, 1)],
      ['an extra key (js-debug)', node20.replace('"hitCount":0', '"hitCount":0,"locationId":3')],
      ['deoptReason', node20.replace('"hitCount":0', '"hitCount":0,"deoptReason":""')],
      ['keys in another order', node20.replace(/\{"id":(\d+),"callFrame":(\{[^}]*\})/, '{"callFrame":$2,"id":$1')],
      ['children twice', node20.replace('"children":[', '"children":[],"children":[')],
      ['a fractional hit count', node20.replace('"hitCount":0', '"hitCount":0.5')],
      ['a tick with another key', node20.replace('{"line":', '{"startLocationId":1,"line":')],
      ['non-ASCII text', node20.replace('"functionName":"fib"', '"functionName":"fïb"')],
      ['a nested value in a call frame', node20.replace('"url":""', '"url":"","extra":[1]')],
      ['invalid JSON in a call frame', node20.replace('"url":""', '"url":"\\q"')],
      ['nodes given twice', node20.replace(',"startTime"', ',"nodes":[],"startTime"')],
      ['an empty nodes list', '{"nodes":[],"startTime":0,"endTime":0,"samples":[],"timeDeltas":[]}'],
    ];
    for (const [what, text] of cases) assert.equal(viaScan(text), null, what);
    // Non-ASCII at both ends: the byte count must not come out equal to the character count.
    const both = `${node20.slice(0, head(node20)).replace('"functionName":"fib"', '"functionName":"fïb"')}é`;
    assert.equal(scanV8Nodes(both, both.length, 'x', []), null);
  });

  it('does not run past the end of a damaged text', () => {
    for (const end of [1, 10, 100, 1000, node20.length >> 1]) {
      const cut = node20.slice(0, end);
      assert.equal(scanV8Nodes(cut, cut.length, 'x', []), null, String(end));
    }
    assert.equal(scanV8Nodes('{"nodes":[{"id":12345', 21, 'x', []), null);
    assert.equal(scanV8Nodes('{"nodes":[{"id":1,"callFrame":{"a":"\\', 35, 'x', []), null);
  });
});
