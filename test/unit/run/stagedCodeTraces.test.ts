/** Only a staging folder V8 Lens itself would have made is ever read from outside a run folder. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stagingFolderOf } from '../../../src/core/run/stagedCodeTraces';
import { runLayout } from '../../../src/core/run/runLayout';
import type { SessionRecord } from '../../../src/shared/model/session';

const layout = runLayout('/work/project/.v8-lens/runs/r1');
const sessionWith = (dir: unknown) => ({ launch: { env: { V8_LENS_CODE_TRACE_DIR: dir } } }) as unknown as SessionRecord;

describe('stagingFolderOf', () => {
  it('accepts mkdtemp\'s v8-lens-XXXXXX directly in a temporary folder', () => {
    assert.equal(stagingFolderOf(sessionWith('/tmp/v8-lens-a1B2c3'), layout, ['/tmp']), '/tmp/v8-lens-a1B2c3');
  });

  it('ignores the run folder itself, other names, other places, traversal and non-strings', () => {
    for (const dir of [layout.v8LogDir, '/tmp/other', '/etc', '/tmp/x/v8-lens-a1B2c3', '/tmp/v8-lens-a1B2c3/../../etc', '/tmp/v8-lens-../../etc', 5, null]) {
      assert.equal(stagingFolderOf(sessionWith(dir), layout, ['/tmp']), null, String(dir));
    }
    assert.equal(stagingFolderOf({ launch: {} } as unknown as SessionRecord, layout, ['/tmp']), null);
  });
});
