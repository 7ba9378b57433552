import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { freeFolderIn, runFolderLabel, runFolderStamp } from '../../../src/core/run/runFolderName';
import { tempDir } from '../../../scripts/tempDirs';

describe('run folder names', () => {
  const parent = tempDir('v8lens-names-');
  after(() => rmSync(parent, { recursive: true, force: true }));

  it('stamps UTC time to the second, so names sort by time', () => {
    assert.equal(runFolderStamp(new Date('2026-11-27T02:34:08.911Z')), '20261127-023408');
  });

  it('labels without the extension or characters a shell minds, at most 40 characters', () => {
    assert.equal(runFolderLabel('my server.mjs'), 'my_server');
    assert.equal(runFolderLabel('a'.repeat(245) + '.js'), 'a'.repeat(40));
    assert.equal(runFolderLabel('.js'), 'run');
  });

  it('takes the name when it is free or empty, else the first -N from 2 that is', () => {
    assert.equal(freeFolderIn(parent, 'x'), join(parent, 'x'));
    mkdirSync(join(parent, 'x'));
    assert.equal(freeFolderIn(parent, 'x'), join(parent, 'x'), 'an empty folder is free');
    writeFileSync(join(parent, 'x', 'session.json'), '{}');
    assert.equal(freeFolderIn(parent, 'x'), join(parent, 'x-2'));
    mkdirSync(join(parent, 'x-2'));
    writeFileSync(join(parent, 'x-2', 'session.json'), '{}');
    writeFileSync(join(parent, 'x-3'), 'a file of that name');
    assert.equal(freeFolderIn(parent, 'x'), join(parent, 'x-4'));
  });
});
