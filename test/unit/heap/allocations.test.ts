/** Sampling heap profiles: the reader, and which functions allocate what. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { inliningCaveat, summarizeAllocations } from '../../../src/core/heap/allocSummary';
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

describe('completing and pruning a heap profile', () => {
  it('names frames V8 left unnamed from the same isolate\'s CPU profile, by script id; an ambiguous name keeps no start', async () => {
    const { resolveHeapPositions } = await import('../../../src/core/heap/resolvePositions');
    const unnamed = (name: string, scriptId: string) => ({ callFrame: { functionName: name, scriptId, url: '', lineNumber: -1, columnNumber: -1 }, selfSize: 10, id: nextId++, children: [] });
    const profile = parseHeapProfile(JSON.stringify({ head: node('(root)', 0, [unnamed('work', '7'), unnamed('twice', '7'), unnamed('other', '9')]) }), 'x');
    const resolved = resolveHeapPositions(profile, { urls: new Map([['7', '/app/main.js']]), starts: new Map([['7\u0000work', { line: 12, column: 3 }]]) });
    assert.equal(resolved, 2);
    assert.deepEqual(profile.nodes.map((n) => [n.name, n.url, n.line, n.column]), [
      ['(root)', '', 0, 0],
      ['work', '/app/main.js', 12, 3],
      ['twice', '/app/main.js', 0, 0],
      ['other', '', 0, 0],
    ]);
  });

  it('places anonymous functions by their callers in the CPU profile: two in one script told apart, through V8\'s frames and inlined callers', async () => {
    const { resolveHeapPositions } = await import('../../../src/core/heap/resolvePositions');
    // Node 20 leaves the main script's frames without url and position (as in a real Node 20 profile).
    const bare = (name: string, scriptId: string, children: unknown[] = [], selfSize = 0) => ({ callFrame: { functionName: name, scriptId, url: '', lineNumber: -1, columnNumber: -1 }, selfSize, id: nextId++, children });
    const heap = parseHeapProfile(JSON.stringify({
      head: bare('(root)', '0', [
        bare('', '7', [
          bare('run', '7', [bare('', '7', [bare('push', '0', [], 40)], 900)]),
          bare('later', '7', [bare('', '7', [], 60)]),
          bare('twice', '7', [bare('', '7', [], 5)]),
        ]),
      ]),
    }), 'x');
    // The CPU profile: root > module (1:1) > run (3:1) > anonymous (4:5); module > helper (inlined into later, seen by the
    // CPU profiler) > anonymous (9:3); module > twice, called twice, each time calling a different anonymous function.
    const frames = [
      { functionName: '(root)', scriptId: '0', line: 0, column: 0 },
      { functionName: '', scriptId: '7', line: 1, column: 1 },
      { functionName: 'run', scriptId: '7', line: 3, column: 1 },
      { functionName: '', scriptId: '7', line: 4, column: 5 },
      { functionName: 'later', scriptId: '7', line: 7, column: 1 },
      { functionName: 'helper', scriptId: '7', line: 8, column: 1 },
      { functionName: '', scriptId: '7', line: 9, column: 3 },
      { functionName: 'twice', scriptId: '7', line: 11, column: 1 },
      { functionName: '', scriptId: '7', line: 12, column: 3 },
      { functionName: '', scriptId: '7', line: 13, column: 3 },
    ];
    //              0   1  2  3  4  5  6  7  8  9  10
    const parents = [-1, 0, 1, 2, 1, 4, 5, 1, 7, 1, 9];
    const nodeFrames = [0, 1, 2, 3, 4, 5, 6, 7, 8, 7, 9];
    const urls = new Map([['7', '/app/main.js']]);
    const starts = new Map([['7\u0000run', { line: 3, column: 1 }], ['7\u0000later', { line: 7, column: 1 }]]);
    resolveHeapPositions(heap, { urls, starts, calls: { parents, nodeFrames, frames } });
    assert.deepEqual(heap.nodes.map((n) => [n.name, n.line, n.column]), [
      ['(root)', 0, 0],
      ['(anonymous)', 1, 1],
      ['run', 3, 1],
      ['(anonymous)', 4, 5],
      ['push', 0, 0],
      ['later', 7, 1],
      ['(anonymous)', 9, 3],
      ['twice', 11, 1],
      ['(anonymous)', 0, 0],
    ], 'twice is placed by its callers (no name entry needed); it ran twice, calling a different anonymous function each time: neither is guessed');
    // Without the call tree, names alone place none of the anonymous ones.
    const byName = parseHeapProfile(JSON.stringify({ head: bare('(root)', '0', [bare('', '7', [bare('run', '7', [bare('', '7', [], 900)])])]) }), 'x');
    resolveHeapPositions(byName, { urls, starts });
    assert.deepEqual(byName.nodes.map((n) => [n.name, n.line]), [['(root)', 0], ['(anonymous)', 0], ['run', 3], ['(anonymous)', 0]]);
  });

  it('takes V8 Lens\'s own frames out with everything under them, and their bytes out of the total', async () => {
    const { pruneFrames } = await import('../../../src/core/heap/resolvePositions');
    const preload = { callFrame: { functionName: '', scriptId: '3', url: '/ext/dist/preload.js', lineNumber: 9, columnNumber: 0 }, selfSize: 5, id: nextId++, children: [node('stop', 70)] };
    const profile = parseHeapProfile(JSON.stringify({ head: node('(root)', 0, [node('app', 100), preload]) }), 'x');
    assert.equal(pruneFrames(profile, (n) => n.url.endsWith('preload.js')), 75);
    assert.equal(profile.totalBytes, 100);
    assert.deepEqual(profile.nodes.map((n) => [n.name, n.parent, n.children]), [['(root)', -1, [1]], ['app', 0, []]]);
  });

  it('merges processes: bytes add up, functions by place, shares over the whole', async () => {
    const { mergeAllocations } = await import('../../../src/core/run/runAllocations');
    const one = summarizeAllocations(parseHeapProfile(JSON.stringify({ head: node('(root)', 0, [node('handle', 300, [], 4)]) }), 'a'), context);
    const two = summarizeAllocations(parseHeapProfile(JSON.stringify({ head: node('(root)', 0, [node('handle', 100, [], 4), node('log', 100, [], 9)]) }), 'b'), { ...context, requests: null });
    const merged = mergeAllocations([one, two]);
    assert.equal(merged.totalBytes, 500);
    assert.deepEqual(merged.functions.map((f) => [f.name, f.selfBytes, f.share]), [['handle', 400, 0.8], ['log', 100, 0.2]]);
    assert.equal(merged.bytesPerSecond, 250);
    assert.equal(merged.bytesPerRequest, null, 'one process without requests: unknown for the whole');
  });
});

describe('inliningCaveat', () => {
  const fn = (name: string, share: number, url = '/srv/app/server.js') => ({ name, url, line: 1, column: 1, selfBytes: share * 100, totalBytes: share * 100, share });
  const none = () => [];

  it('names the top allocator and what the CPU profile saw run under it', () => {
    const text = inliningCaveat({ functions: [fn('Map', 0.5, ''), fn('handle', 0.38)] }, false, (f) => (f.name === 'handle' ? ['buildOrder', 'toLine'] : []));
    assert.equal(
      text,
      "V8 gives an inlined function's allocations to the function it was inlined into: handle (38%) may include what the functions it calls allocated (the CPU profile sees buildOrder, toLine run under it). For exact sites, profile with exact allocation sites (inlining off, which slows the app down).",
    );
  });

  it('says it in general when no app function makes a tenth, and not at all for exact sites', () => {
    assert.match(inliningCaveat({ functions: [fn('a', 0.05)] }, false, none) ?? '', /: a function may include what the functions it calls allocated\./);
    assert.equal(inliningCaveat({ functions: [fn('handle', 0.9)] }, true, none), null);
  });
});
