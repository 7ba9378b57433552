/** A webview asks to open a source: honoured only for what the report names, or inside the workspace. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mayOpenSource, namedSourceUrls } from '../../../src/core/report/namedSources';

const model = {
  title: 't',
  flame: { name: '(root)', url: '', children: [{ name: 'a', url: 'file:///app/a.js', children: [] }] },
  summary: {
    cpu: { functions: [{ name: 'b', url: '/app/b.js' }] },
    deopts: [{ url: '/app/c.js', inlinedAt: [{ url: '/app/d.js', line: 3 }] }],
  },
};

describe('namedSourceUrls', () => {
  it('finds every url in the model: flame frames, functions, deopts and their inlining sites', () => {
    assert.deepEqual([...namedSourceUrls(model)].sort(), ['/app/b.js', '/app/c.js', '/app/d.js', 'file:///app/a.js']);
  });

  it('walks a flame tree 100,000 frames deep without overflowing the stack', () => {
    let node = { name: 'leaf', url: '/deep.js', children: [] as unknown[] };
    for (let i = 0; i < 100_000; i++) node = { name: `f${i}`, url: '', children: [node] };
    assert.deepEqual([...namedSourceUrls({ flame: node })], ['/deep.js']);
  });
});

describe('mayOpenSource', () => {
  const named = namedSourceUrls(model);
  const key = (p: string) => p.replace(/\/+$/, '');
  it('opens what the report names, wherever it is', () => {
    assert.equal(mayOpenSource('/app/b.js', '/app/b.js', named, [], key), true);
  });

  it('opens a file inside the workspace the report does not name', () => {
    assert.equal(mayOpenSource('/ws/src/x.js', '/ws/src/x.js', named, ['/ws'], key), true);
  });

  it('refuses anything else: /etc/passwd, file:///etc/shadow, ../ out of the workspace, a sibling folder with the same prefix', () => {
    assert.equal(mayOpenSource('/etc/passwd', '/etc/passwd', named, ['/ws'], key), false);
    assert.equal(mayOpenSource('file:///etc/shadow', '/etc/shadow', named, ['/ws'], key), false);
    assert.equal(mayOpenSource('../../etc/hostname', '/etc/hostname', named, ['/ws'], key), false);
    assert.equal(mayOpenSource('/ws-other/x.js', '/ws-other/x.js', named, ['/ws'], key), false);
  });
});
