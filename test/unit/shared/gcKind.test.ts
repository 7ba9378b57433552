/** Which generation each GC type V8 prints (Node 18–26) collects: one rule for every count. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isFullGc, isYoungGenerationGc } from '../../../src/shared/gcKind';

describe('isYoungGenerationGc / isFullGc', () => {
  it('knows every type V8 prints, from Node 18 to Node 26', () => {
    const young = ['Scavenge', 'Minor Mark-Sweep', 'Minor Mark-Compact'];
    const full = ['Mark-Compact', 'Incremental Mark-Compact', 'Mark-sweep'];
    for (const t of young) assert.ok(isYoungGenerationGc(t) && !isFullGc(t), t);
    for (const t of full) assert.ok(isFullGc(t) && !isYoungGenerationGc(t), t);
  });

  it('calls neither what it does not know (an attached run\'s "Incremental marking" step, a new name)', () => {
    for (const t of ['Incremental marking', 'Weak callbacks', 'Young Sweep', '']) {
      assert.ok(!isFullGc(t) && !isYoungGenerationGc(t), t);
    }
  });
});
