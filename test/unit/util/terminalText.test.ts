/** Data printed to a terminal cannot drive it: control characters become visible escapes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonForTerminal, safeForTerminal } from '../../../src/core/util/terminalText';

describe('safeForTerminal', () => {
  it('makes ESC, BEL, CR, DEL and the one-byte CSI visible, keeps tabs, newlines and other text', () => {
    assert.equal(safeForTerminal('evil\u001b]0;pwned\u0007\u001b[2J\rX\u009b31m'), 'evil\\x1b]0;pwned\\x07\\x1b[2J\\rX\\x9b31m');
    assert.equal(safeForTerminal('a\tb\nc ünïcødé → ✓'), 'a\tb\nc ünïcødé → ✓');
    assert.equal(safeForTerminal('\u007f\u0000'), '\\x7f\\x00');
  });
});

describe('jsonForTerminal', () => {
  it('escapes DEL and C1 (which JSON.stringify leaves raw) and stays the same JSON value', () => {
    const value = { name: 'x\u009b31m\u007f\u001b' };
    const text = jsonForTerminal(value);
    assert.doesNotMatch(text, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    assert.deepEqual(JSON.parse(text), value);
  });

  it('an all-ASCII value comes out as JSON.stringify writes it; a lone DEL in ASCII text is still escaped', () => {
    const plain = { a: [1, 2.5, 'text with "quotes" and \\'], b: { c: null, d: '\u001b[31m' } };
    assert.equal(jsonForTerminal(plain), JSON.stringify(plain, null, 2));
    assert.equal(jsonForTerminal({ del: 'a\u007fb' }), '{\n  "del": "a\\u007fb"\n}');
    assert.equal(jsonForTerminal({ e: 'é\u0085' }), '{\n  "e": "é\\u0085"\n}');
  });
});

describe('bidirectional controls and echoed text', () => {
  it('a right-to-left override and its kin are visible escapes in the terminal, in JSON and in Markdown text', async () => {
    const { clipText, escapeBidi } = await import('../../../src/core/util/terminalText');
    const name = 'isAdmin\u202e \u2066nimda\u2069\u200f';
    assert.equal(safeForTerminal(name), 'isAdmin\\u202e \\u2066nimda\\u2069\\u200f');
    assert.equal(escapeBidi(name), 'isAdmin\\u202e \\u2066nimda\\u2069\\u200f');
    assert.equal(JSON.parse(jsonForTerminal({ name })).name, name, 'the same JSON value');
    assert.ok(!/[\u202a-\u202e\u2066-\u2069\u200e\u200f]/.test(jsonForTerminal({ name })));
    assert.equal(safeForTerminal('→ ünïcødé'), '→ ünïcødé', 'other non-ASCII text stays');
    assert.equal(clipText('x'.repeat(100_000), 50), `${'x'.repeat(50)}… (99,950 more characters)`);
    assert.equal(clipText('short'), 'short');
  });
});
