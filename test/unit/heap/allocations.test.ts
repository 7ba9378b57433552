/** Sampling heap profiles: the reader, and which functions allocate what. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { summarizeAllocations } from '../../../src/core/heap/allocSummary';
import { HeapProfileError } from '../../../src/core/heap/heapProfileError';
import { parseHeapProfile } from '../../../src/core/heap/parseHeapProfile';

const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'heap', 'two-allocators-node24.heapprofile');

let nextId = 1;
function node(functionName: string, selfSize: number, children: unknown[] = [], line = 0) {
  return { callFrame: { functionName, scriptId: '1', url: functionName.startsWith('(') ? '' : 'file:///app.js', lineNumber: line - 1, columnNumber: line > 0 ? 4 : -1 }, selfSize, id: nextId++, children };
}

const context = { durationMs: 2000, samplingIntervalBytes: 32768, requests: 100, liveAtEndBytes: 5e6 };

describe('parseHeapProfile', () => {
  it('reads a real Node 24 profile: every node, the bytes V8 estimated, positions 1-based', () => {
    const text = readFileSync(FIXTURE, 'utf8');
    const raw = JSON.parse(text) as { head: unknown; samples: unknown[] };
    const profile = parseHeapProfile(text, 'two-allocators-node24.heapprofile');
    let rawBytes = 0;
    const pending = [raw.head as { selfSize: number; children: unknown[] }];
    let rawNodes = 0;
    while (pending.length > 0) {
      const n = pending.pop()!;
      rawNodes++;
      rawBytes += n.selfSize;
      pending.push(...(n.children as (typeof n)[]));
    }
    assert.equal(profile.nodes.length, rawNodes);
    assert.equal(profile.totalBytes, rawBytes);
    assert.equal(profile.sampleCount, raw.samples.length);
    assert.equal(profile.nodes[0]!.name, '(root)');
    assert.equal(profile.nodes[0]!.line, 0);
    assert.ok(profile.nodes.some((n) => n.url.endsWith('gen.js') && n.line >= 1), 'script frames have 1-based lines');
    assert.deepEqual(profile.warnings, []);
  });

  it('bad input is one line naming the file; odd nodes are dropped with a warning', () => {
    for (const [text, pattern] of [
      ['', /the file is empty/],
      ['{"head":', /not JSON/],
      ['{"nodes":[],"samples":[],"timeDeltas":[]}', /a CPU profile \(\.cpuprofile\), not a heap profile/],
      ['[1,2]', /no head node/],
    ] as const) {
      assert.throws(() => parseHeapProfile(text, 'x.heapprofile'), (e: unknown) => e instanceof HeapProfileError && pattern.test(e.message) && e.message.includes('x.heapprofile') && !e.message.includes('\n'));
    }
    const odd = parseHeapProfile(JSON.stringify({ head: node('(root)', 0, [node('a', 100), { callFrame: 5 }, node('b', -3)]) }), 'x');
    assert.deepEqual(odd.nodes.map((n) => n.name), ['(root)', 'a']);
    assert.match(odd.warnings[0]!, /2 malformed call-tree node/);
  });

  it('a call tree 100,000 deep does not overflow the stack', () => {
    // Written as text: JSON.stringify itself recurses.
    const open = `{"callFrame":{"functionName":"f","scriptId":"1","url":"file:///app.js","lineNumber":2,"columnNumber":0},"selfSize":0,"id":2,"children":[`;
    const leaf = JSON.stringify(node('leaf', 8));
    const text = `{"head":{"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"selfSize":0,"id":1,"children":[${open.repeat(100_000)}${leaf}${']}'.repeat(100_000)}]}}`;
    const profile = parseHeapProfile(text, 'deep');
    assert.equal(profile.nodes.length, 100_002);
    const summary = summarizeAllocations(profile, context);
    assert.equal(summary.functions.find((f) => f.name === 'f')!.totalBytes, 8, 'recursion counted once per path');
  });
});

describe('summarizeAllocations', () => {
  const tree = node('(root)', 0, [
    node('handle', 100, [node('buildOrders', 3000, [node('buildOrders', 1000, [], 10)], 10), node('format', 400, [], 20)], 5),
    node('(V8 API)', 500),
  ]);
  const summary = summarizeAllocations(parseHeapProfile(JSON.stringify({ head: tree, samples: [{}, {}] }), 'x'), context);

  it('own and total bytes per function, a recursive one counted once, sorted by own bytes, shares of all', () => {
    assert.equal(summary.totalBytes, 5000);
    assert.deepEqual(
      summary.functions.map((f) => [f.name, f.selfBytes, f.totalBytes, f.share]),
      [
        ['buildOrders', 4000, 4000, 0.8],
        ['(V8 API)', 500, 500, 0.1],
        ['format', 400, 400, 0.08],
        ['handle', 100, 4500, 0.02],
      ],
    );
    assert.deepEqual([summary.functions[0]!.line, summary.functions[0]!.column], [10, 5]);
  });

  it('rates over the time and the requests, and what it was told', () => {
    assert.equal(summary.bytesPerSecond, 2500);
    assert.equal(summary.bytesPerRequest, 50);
    assert.equal(summary.liveAtEndBytes, 5e6);
    assert.equal(summary.samplingIntervalBytes, 32768);
    assert.equal(summary.sampleCount, 2);
    const unknown = summarizeAllocations(parseHeapProfile(JSON.stringify({ head: tree }), 'x'), { ...context, durationMs: null, requests: null });
    assert.equal(unknown.bytesPerSecond, null, 'not collected, never 0');
    assert.equal(unknown.bytesPerRequest, null);
  });
});
