import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shiftLines, type LineEdit } from '../../../src/core/annotations/lineShift';
import { isAnnotatableUrl, pathKey, resolveSourcePath } from '../../../src/core/annotations/sourcePaths';

describe('resolveSourcePath', () => {
  const files = new Set(['/ws/src/app.js', '/ws/lib/ü ber.js', '/ws2/server.js']);
  const exists = (p: string) => files.has(p);

  it('keeps a recorded path that exists, decodes file:// URLs', () => {
    assert.equal(resolveSourcePath('/ws/src/app.js', ['/ws'], exists), '/ws/src/app.js');
    assert.equal(resolveSourcePath('file:///ws/lib/%C3%BC%20ber.js', ['/ws'], exists), '/ws/lib/ü ber.js');
  });

  it('finds the longest existing tail under a root for paths from another machine', () => {
    assert.equal(resolveSourcePath('/home/ci/build/src/app.js', ['/ws2', '/ws'], exists), '/ws/src/app.js');
    assert.equal(resolveSourcePath('file:///D:/agent/work/server.js', ['/ws', '/ws2'], exists), '/ws2/server.js');
    assert.equal(resolveSourcePath('C:\\agent\\src\\app.js', ['/ws'], exists), '/ws/src/app.js');
  });

  it('Node internals, remote and eval code are not files', () => {
    for (const url of ['node:internal/timers', 'https://x.test/a.js', 'evalmachine.<anonymous>', '', 'data:text/javascript,1']) {
      assert.equal(isAnnotatableUrl(url), false, url);
      assert.equal(resolveSourcePath(url, ['/ws'], () => true), null, url);
    }
  });

  it('Windows keys ignore drive-letter case and separators', () => {
    const id = (p: string) => p;
    assert.equal(pathKey('C:\\Work\\app.js', id), pathKey('c:/Work/app.js', id));
    assert.equal(pathKey('/a/./b/../c.js', id), '/a/c.js');
  });
});

describe('shiftLines (annotations follow edits)', () => {
  const insertLines = (at: number, n: number): LineEdit => ({ startLine: at, endLine: at, newLineCount: n + 1 });

  it('lines above an edit stay, lines below move by the lines it added or removed', () => {
    assert.equal(shiftLines(3, [insertLines(10, 2)]), 3);
    assert.equal(shiftLines(12, [insertLines(10, 2)]), 14);
    assert.equal(shiftLines(12, [{ startLine: 5, endLine: 8, newLineCount: 1 }]), 9, 'four lines joined into one');
  });

  it('the edited line itself loses its annotation: its code is not what ran', () => {
    assert.equal(shiftLines(10, [{ startLine: 10, endLine: 10, newLineCount: 1 }]), null);
    assert.equal(shiftLines(7, [{ startLine: 5, endLine: 8, newLineCount: 1 }]), null);
  });

  it('applies edits in order', () => {
    assert.equal(shiftLines(20, [insertLines(1, 1), insertLines(1, 1), { startLine: 3, endLine: 4, newLineCount: 1 }]), 21);
  });
});
