import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitLogLine, unescapeCodePoints, unescapeUtf8Bytes } from '../../../src/core/v8log/logLine';

describe('splitLogLine', () => {
  it('splits on commas; escaped commas stay inside their field', () => {
    assert.deepEqual(splitLogLine('code-deopt,1,2,<a\\x2Cb.js:1:2>,not a Smi'), ['code-deopt', '1', '2', '<a\\x2Cb.js:1:2>', 'not a Smi']);
    assert.deepEqual(splitLogLine('code-creation,JS,10,5,0x1,6,,0x2,'), ['code-creation', 'JS', '10', '5', '0x1', '6', '', '0x2', '']);
  });
});

describe('unescapeUtf8Bytes (code-deopt positions)', () => {
  it('decodes runs of \\xNN as UTF-8 bytes', () => {
    assert.equal(unescapeUtf8Bytes('/ABS/\\xc3\\xbc dir/\\xe6\\x97\\xa5\\xe6\\x9c\\xac.js'), '/ABS/ü dir/日本.js');
  });
  it('unescapes \\x2C, \\\\ and \\n, and mixes them with multi-byte runs', () => {
    assert.equal(unescapeUtf8Bytes('a\\\\b\\x2Cc\\nd\\xc3\\xbc\\x2C'), 'a\\b,c\nd\u00fc,');
  });
  it('turns invalid UTF-8 into U+FFFD instead of throwing', () => {
    assert.equal(unescapeUtf8Bytes('x\\xffy'), 'x\ufffdy');
  });
  it('keeps unknown escapes and a trailing backslash as they are', () => {
    assert.equal(unescapeUtf8Bytes('a\\qb\\x4'), 'a\\qb\\x4');
    assert.equal(unescapeUtf8Bytes('end\\'), 'end\\');
  });
});

describe('unescapeCodePoints (code-creation names, script urls)', () => {
  it('decodes \\xNN as a Latin-1 code point and \\uXXXX as a UTF-16 unit', () => {
    assert.equal(unescapeCodePoints('/ABS/\\xfc dir/\\u65e5\\u672c.js'), '/ABS/ü dir/日本.js');
  });
  it('leaves raw UTF-8 function names alone', () => {
    assert.equal(unescapeCodePoints('añadir /ABS/\\xfc dir/a\\\\b\\x2Cc.js:1:16'), 'añadir /ABS/ü dir/a\\b,c.js:1:16');
  });
  it('reads the same bytes differently from unescapeUtf8Bytes', () => {
    assert.equal(unescapeCodePoints('\\xc3\\xbc'), 'Ã¼');
    assert.equal(unescapeUtf8Bytes('\\xc3\\xbc'), 'ü');
  });
});
