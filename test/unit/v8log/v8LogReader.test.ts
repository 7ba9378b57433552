import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { V8Deopt, V8LogAnalysis } from '../../../src/core/v8log/types';
import { analyzeV8LogText, findV8LogFiles, readV8LogFile, readV8LogFiles } from '../../../src/core/v8log/v8LogReader';
import { tempDir } from '../../../scripts/tempDirs';

const FIXTURES = join(__dirname, '..', '..', 'fixtures', 'v8log');
const fixture = (name: string) => join(FIXTURES, name);

/** A deopt reduced to what the assertions compare (times rounded by V8 to µs already). */
function brief(d: V8Deopt) {
  return {
    at: d.position === null ? null : `${d.position.url}:${d.position.line}:${d.position.column}`,
    inlinedAt: d.inlinedAt.map((p) => `${p.line}:${p.column}`),
    kind: d.kind,
    reason: d.reason,
    function: d.function?.name ?? null,
    optimizedFunction: d.optimizedFunction?.name ?? null,
    tier: d.tier,
  };
}

function find(a: V8LogAnalysis, reason: string, inlined = false): V8Deopt {
  const d = a.deopts.find((x) => x.reason === reason && x.inlinedAt.length > 0 === inlined);
  assert.ok(d, `no ${reason} deopt (inlined: ${inlined})`);
  return d;
}

const tmp = tempDir('v8lens-v8log-test-');
after(() => rmSync(tmp, { recursive: true, force: true }));

describe('recorded logs of deopts.js, Node 18–24', () => {
  const cases = [
    { file: 'node18-deopts.log', version: '10.2.154.26-node.39', notASmiMs: 168.963 },
    { file: 'node20-deopts.log', version: '11.3.244.8-node.38', notASmiMs: 124.166 },
    { file: 'node22-deopts.log', version: '12.4.254.21-node.57', notASmiMs: 155.363 },
    { file: 'node24-deopts.log', version: '13.6.233.17-node.53', notASmiMs: 137.789 },
  ];
  for (const c of cases) {
    it(`${c.file}: both expected deopts, attributed to their functions`, async () => {
      const a = await readV8LogFile(fixture(c.file));
      assert.equal(a.v8Version, c.version);
      assert.equal(a.counters.malformedLines, 0);
      assert.equal(a.counters.truncatedLines, 0);
      assert.equal(a.counters.unresolvedDeopts, 0);

      const notASmi = find(a, 'not a Smi');
      assert.deepEqual(brief(notASmi), {
        at: '/ABS/deopts.js:4:12',
        inlinedAt: [],
        kind: 'deopt-eager',
        reason: 'not a Smi',
        function: 'add',
        optimizedFunction: 'add',
        tier: 'turbofan',
      });
      assert.equal(notASmi.timeMs, c.notASmiMs);
      assert.equal(notASmi.inliningId, -1);
      assert.equal(notASmi.scriptOffset, 135);
      assert.equal(notASmi.isolate, c.file);

      const wrongMap = find(a, 'wrong map', true);
      assert.deepEqual(brief(wrongMap), {
        at: '/ABS/deopts.js:8:12',
        inlinedAt: ['15:45'],
        kind: 'deopt-eager',
        reason: 'wrong map',
        function: 'getX',
        optimizedFunction: 'sumPoints',
        tier: 'turbofan',
      });
      assert.equal(wrongMap.inlinedAt[0]?.url, '/ABS/deopts.js');
      assert.equal(wrongMap.inliningId, 0);
    });
  }

  it('node18: reads the old LazyCompile/Function code-creation tags', async () => {
    const a = await readV8LogFile(fixture('node18-deopts.log'));
    const add = a.functions.find((f) => f.name === 'add');
    assert.deepEqual(add && { line: add.line, column: add.column, tiers: add.tiers }, { line: 3, column: 13, tiers: ['interpreted', 'sparkplug', 'turbofan'] });
    const topLevel = a.functions.find((f) => f.name === '' && f.line === 1);
    assert.equal(topLevel?.url, '/ABS/deopts.js');
  });

  it("node24: tiers through Maglev; reads the `+'` and `*'` markers", async () => {
    const a = await readV8LogFile(fixture('node24-deopts.log'));
    const add = a.functions.find((f) => f.name === 'add');
    assert.deepEqual(add?.tiers, ['interpreted', 'sparkplug', 'maglev', 'turbofan']);
    assert.deepEqual(
      add?.optimizations.map((o) => [o.timeMs, o.tier]),
      [
        [47.189, 'maglev'],
        [68.943, 'turbofan'],
      ],
    );
    assert.equal(find(a, 'not a Smi').marker, "*'");
    const warmUp = a.deopts.filter((d) => d.function?.name === 'warmUpAdd');
    assert.deepEqual(
      warmUp.map((d) => [d.tier, d.marker, d.reason]),
      [
        ['maglev', '+', 'Insufficient type feedback for binary operation'],
        ['maglev', '+', 'Insufficient type feedback for generic global access'],
      ],
    );
    const getXOwn = a.deopts.find((d) => d.optimizedFunction?.name === 'getX');
    assert.deepEqual(getXOwn && [getXOwn.tier, getXOwn.marker], ['maglev', "+'"]);
  });

  it('node22 (--stress-compaction): code-move lines are read, nothing is left unresolved', async () => {
    const text = readFileSync(fixture('node22-deopts.log'), 'utf8');
    assert.ok(text.includes('\ncode-move,'));
    const a = analyzeV8LogText(text);
    assert.equal(a.counters.malformedLines, 0);
    assert.equal(a.counters.ignoredEvents['code-move'], undefined);
    assert.equal(a.deopts.length, 4);
    assert.equal(a.counters.unresolvedDeopts, 0);
  });
});

describe('paths', () => {
  it('ESM: a file:// URL with %20 and \\x2C becomes the file path; the URL is kept', async () => {
    const a = await readV8LogFile(fixture('node20-esm-lazy.log'));
    const lazy = a.deopts.find((d) => d.kind === 'dependency-change');
    assert.ok(lazy);
    assert.deepEqual(lazy.position, {
      url: '/ABS/we ird,dir/lazy.mjs',
      sourceUrl: 'file:///ABS/we%20ird,dir/lazy.mjs',
      line: 7,
      column: 15,
    });
    // A lazy deopt points at the start of the function whose code was invalidated.
    assert.equal(lazy.reason, 'code dependencies');
    assert.deepEqual(lazy.function && [lazy.function.name, lazy.function.url, lazy.function.line, lazy.function.column], [
      'total',
      '/ABS/we ird,dir/lazy.mjs',
      7,
      15,
    ]);
  });

  it('Node 24 names the lazy deopt reason', async () => {
    const a = await readV8LogFile(fixture('node24-esm-lazy.log'));
    const lazy = a.deopts.filter((d) => d.kind === 'dependency-change');
    assert.deepEqual(
      lazy.map((d) => [d.reason, d.function?.name, d.marker]),
      [
        ['dependent field type constness changed', 'total', "*'"],
        ['dependent field type constness changed', 'total', "+'"],
      ],
    );
  });

  it('non-ASCII: both escape styles decode to the same file, so deopts match their functions', async () => {
    const text = readFileSync(fixture('node20-nonascii.log'), 'utf8');
    // The fixture really has both styles: code points in code-creation, UTF-8 bytes in code-deopt.
    assert.ok(text.includes(',f /ABS/\\xfc dir/\\u65e5\\u672c.js:5:11,'));
    assert.ok(text.includes('</ABS/\\xc3\\xbc dir/\\xe6\\x97\\xa5\\xe6\\x9c\\xac.js:6:12>'));
    const a = analyzeV8LogText(text);
    const wrongMap = find(a, 'wrong map');
    assert.equal(wrongMap.position?.url, '/ABS/ü dir/日本.js');
    assert.equal(wrongMap.function?.url, '/ABS/ü dir/日本.js');
    assert.equal(wrongMap.function?.name, 'f');
    const notASmi = find(a, 'not a Smi');
    assert.equal(notASmi.position?.url, '/ABS/ü dir/a\\b,c.js');
    assert.deepEqual(notASmi.function, { name: 'añadir', url: '/ABS/ü dir/a\\b,c.js', sourceUrl: '/ABS/ü dir/a\\b,c.js', line: 2, column: 16 });
    // An inlined-position lookup by file works too: the url strings are identical.
    assert.ok(a.functions.some((f) => f.sourceUrl === wrongMap.position?.sourceUrl));
  });
});

describe('worker threads: one log per isolate', () => {
  it('finds both isolate files and merges them, keeping each deopt with its isolate', async () => {
    const files = await findV8LogFiles(fixture('node20-worker'));
    assert.equal(files.length, 2);
    assert.ok(files.every((f) => /isolate-0x[0-9a-f]+-\d+-v8\.log$/.test(f)));
    const a = await readV8LogFiles(files);
    assert.equal(a.isolates.length, 2);
    assert.deepEqual(
      a.isolates.map((i) => i.deoptCount),
      [2, 2],
    );
    assert.equal(a.v8Version, '11.3.244.8-node.38');
    assert.equal(a.counters.lines, 52);
    assert.equal(a.counters.ignoredEvents['v8-platform'], 2);
    const smi = a.deopts.filter((d) => d.reason === 'not a Smi');
    assert.deepEqual(
      smi.map((d) => [d.isolate, d.position?.line, d.position?.column, d.function?.name]),
      files.map((f) => [f.slice(f.lastIndexOf('/') + 1), 5, 12, 'add']),
    );
    // The same function in both isolates is one entry.
    assert.equal(a.functions.filter((f) => f.name === 'add').length, 1);
    assert.equal(a.functions.find((f) => f.name === 'add')?.optimizations.length, 2);
  });
});

describe('robustness', () => {
  it('ignores a truncated last line and counts it (file and text)', async () => {
    const text = readFileSync(fixture('node20-deopts.log'), 'utf8');
    const lastDeopt = text.lastIndexOf('code-deopt,');
    const cut = text.slice(0, lastDeopt + 40); // mid-line, no newline
    const path = join(tmp, 'cut-v8.log');
    writeFileSync(path, cut);
    const full = analyzeV8LogText(text);
    for (const a of [await readV8LogFile(path), analyzeV8LogText(cut)]) {
      assert.equal(a.counters.truncatedLines, 1);
      assert.equal(a.counters.malformedLines, 0);
      assert.equal(a.deopts.length, full.deopts.length - 1);
      assert.equal(a.counters.lines, full.counters.lines - (text.slice(lastDeopt).split('\n').length - 2));
    }
  });

  it('reading a file gives the same result as reading the text', async () => {
    for (const name of ['node18-deopts.log', 'node24-deopts.log', 'node20-nonascii.log']) {
      const read = await readV8LogFile(fixture(name));
      const inMemory = analyzeV8LogText(readFileSync(fixture(name), 'utf8'), name);
      assert.deepEqual(read, inMemory);
    }
  });

  it('a log over 8 MB is streamed a line at a time, to the same result, its cut last line counted', async () => {
    const text = readFileSync(fixture('node20-deopts.log'), 'utf8');
    // Shared-library lines (the log's first kind) until the file is past the size read whole.
    const filler = 'shared-library,/usr/lib/x86_64-linux-gnu/libc.so.6,0x7f0000000000,0x7f0000100000,0\n';
    const big = text + filler.repeat(Math.ceil((9 * 2 ** 20) / filler.length)) + 'code-deopt,12,';
    const path = join(tmp, 'big-v8.log');
    writeFileSync(path, big);
    const streamed = await readV8LogFile(path);
    assert.deepEqual(streamed, analyzeV8LogText(big, 'big-v8.log'));
    assert.equal(streamed.counters.truncatedLines, 1);
    assert.equal(streamed.deopts.length, analyzeV8LogText(text).deopts.length);
  });

  it('never throws on unknown events, kinds, markers or broken lines, and counts them', () => {
    const log = [
      'v8-version,99,0,1,2,-future,1',
      'code-creation,JS,42,100,0x1000,64,future /app/x.js:3:10,0x9000,%',
      'code-creation,JS,42,101,0x2000,64,ok /app/x.js:9:10,0x9100,*',
      'code-deopt,200,64,0x1000,-1,30,deopt-something-new,</app/x.js:4:5>,a brand-new reason',
      'code-deopt,300,64,0x2000,-1,90,deopt-eager,<unknown>,wrong map',
      'code-deopt,400,64,0x3000,-1,90,deopt-eager,</app/y.js:1:2>,not a Smi',
      'code-deopt,500,64,0x2000,-1,bad,deopt-eager,</app/x.js:9:12>,reason\\x2C with a comma,and a raw one',
      'fancy-new-event,1,2,3',
      'LoadIC,0x1,2,3,4,0,1,0x5,x,,',
      'code-deopt,1,2',
      'code-creation,JS,x',
      'code-move,0xnope,0x1',
      '#!garbage',
      '',
      'tick,0x1,2,0,0x0,0',
    ].join('\n') + '\n';
    const a = analyzeV8LogText(log);
    assert.equal(a.v8Version, '99.0.1.2-future');
    assert.equal(a.counters.lines, 15);
    assert.equal(a.counters.malformedLines, 5);
    assert.deepEqual(a.counters.ignoredEvents, { 'fancy-new-event': 1, LoadIC: 1, tick: 1 });
    assert.equal(a.counters.unresolvedDeopts, 1);
    // Every code-deopt line counts for the self-check, read or not: 5 written, 4 read ("code-deopt,1,2" is not).
    assert.equal(a.counters.deoptEvents, 5);
    assert.equal(a.deopts.length, 4);
    assert.deepEqual(
      a.deopts.map((d) => [d.kind, d.reason, d.tier, d.marker, d.function?.name ?? null, d.position?.line ?? null]),
      [
        ['deopt-something-new', 'a brand-new reason', 'unknown', '%', 'future', 4],
        ['deopt-eager', 'wrong map', 'turbofan', '*', 'ok', null],
        ['deopt-eager', 'not a Smi', null, null, null, 1],
        ['deopt-eager', 'reason, with a comma,and a raw one', 'turbofan', '*', 'ok', 9],
      ],
    );
    assert.equal(a.deopts[3]?.scriptOffset, -1);
    assert.deepEqual(a.functions.find((f) => f.name === 'future')?.tiers, ['unknown']);
  });

  it('resolves deopts through code-move and code-delete, and records sfi-move', () => {
    const log = [
      'code-creation,JS,13,100,0x1000,64,hot /app/x.js:1:1,0x9000,*',
      'code-move,0x1000,0x8000',
      'code-deopt,200,64,0x8000,-1,5,deopt-eager,</app/x.js:1:5>,wrong map',
      'code-deopt,201,64,0x1000,-1,5,deopt-eager,</app/x.js:1:5>,wrong map',
      'code-delete,0x8000',
      'code-deopt,202,64,0x8000,-1,5,deopt-eager,</app/x.js:1:5>,wrong map',
      'sfi-move,0x9000,0x9500',
      // A name that does not parse falls back to the function known by its SFI.
      'code-creation,JS,13,300,0x4000,64,???,0x9500,*',
      'code-deopt,400,64,0x4010,-1,5,deopt-eager,</app/x.js:1:5>,not a Smi',
    ].join('\n') + '\n';
    const a = analyzeV8LogText(log);
    assert.equal(a.counters.malformedLines, 0);
    assert.deepEqual(
      a.deopts.map((d) => d.optimizedFunction?.name ?? null),
      ['hot', null, null, 'hot'],
    );
    assert.equal(a.counters.unresolvedDeopts, 2);
    assert.deepEqual(a.functions.find((f) => f.name === 'hot')?.optimizations.map((o) => o.timeMs), [0.1, 0.3]);
  });
});
