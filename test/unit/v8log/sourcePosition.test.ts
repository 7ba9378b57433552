import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDeoptPosition, parseLocation, urlToPath } from '../../../src/core/v8log/sourcePosition';

describe('parseLocation', () => {
  it('takes line and column from the end', () => {
    assert.deepEqual(parseLocation('/ABS/deopts.js:4:12'), { url: '/ABS/deopts.js', sourceUrl: '/ABS/deopts.js', line: 4, column: 12 });
    assert.deepEqual(parseLocation('C:\\app\\x.js:3:4'), { url: 'C:\\app\\x.js', sourceUrl: 'C:\\app\\x.js', line: 3, column: 4 });
    assert.deepEqual(parseLocation('/a:1:2/b.js:7:8'), { url: '/a:1:2/b.js', sourceUrl: '/a:1:2/b.js', line: 7, column: 8 });
  });
  it('returns null without :line:col', () => {
    assert.equal(parseLocation('native'), null);
    assert.equal(parseLocation('/x.js:4'), null);
  });
});

describe('urlToPath', () => {
  it('turns file:// URLs into paths, percent-decoded', () => {
    assert.equal(urlToPath('file:///ABS/we%20ird,dir/lazy.mjs'), '/ABS/we ird,dir/lazy.mjs');
    assert.equal(urlToPath('file:///ABS/%C3%BC.mjs'), '/ABS/ü.mjs');
  });
  it('reads drive-letter URLs as Windows paths on any OS', () => {
    assert.equal(urlToPath('file:///C:/x%20y/a.mjs'), 'C:\\x y\\a.mjs');
  });
  it('keeps plain paths, other schemes and URLs it cannot convert', () => {
    assert.equal(urlToPath('/ABS/deopts.js'), '/ABS/deopts.js');
    assert.equal(urlToPath('node:internal/main/run_main_module'), 'node:internal/main/run_main_module');
    assert.equal(urlToPath('file://host/share/x.js'), process.platform === 'win32' ? '\\\\host\\share\\x.js' : 'file://host/share/x.js');
  });
});

describe('parseDeoptPosition', () => {
  it('reads a single position', () => {
    assert.deepEqual(parseDeoptPosition('</ABS/deopts.js:4:12>'), {
      innermost: { url: '/ABS/deopts.js', sourceUrl: '/ABS/deopts.js', line: 4, column: 12 },
      inlinedAt: [],
    });
  });
  it('reads an inlined-at chain of any length, innermost first', () => {
    const p = parseDeoptPosition('</a.js:8:12> inlined at </a.js:15:45> inlined at <file:///C:/b%20c.mjs:3:4>');
    assert.deepEqual(p.innermost, { url: '/a.js', sourceUrl: '/a.js', line: 8, column: 12 });
    assert.deepEqual(
      p.inlinedAt.map((q) => [q.url, q.line, q.column]),
      [
        ['/a.js', 15, 45],
        ['C:\\b c.mjs', 3, 4],
      ],
    );
  });
  it('copes with `>` and `:` inside paths', () => {
    const p = parseDeoptPosition('</x>y:z/a.js:1:2> inlined at </x>y:z/b.js:3:4>');
    assert.equal(p.innermost?.url, '/x>y:z/a.js');
    assert.equal(p.inlinedAt[0]?.url, '/x>y:z/b.js');
  });
  it('gives null for <unknown> and for text it cannot read, never throws', () => {
    assert.deepEqual(parseDeoptPosition('<unknown>'), { innermost: null, inlinedAt: [] });
    assert.deepEqual(parseDeoptPosition(''), { innermost: null, inlinedAt: [] });
    assert.deepEqual(parseDeoptPosition('garbage'), { innermost: null, inlinedAt: [] });
    assert.deepEqual(parseDeoptPosition('</a.js:1:2'), { innermost: null, inlinedAt: [] });
    assert.deepEqual(parseDeoptPosition('</a.js:1:2> inlined at <unknown>').inlinedAt, [{ url: '', sourceUrl: '', line: 0, column: 0 }]);
  });
});
