/** /proc/<pid>/stat read once, for the lab's CPU and process groups and attach's process list alike. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseProcStat, readProcStat } from '../../../src/core/launcher/procStats';

// A real line's shape: a command name with a space and a ')' in it must not shift the fields.
const LINE = '4242 (node) wei)rd) S 4200 4242 4200 0 -1 4194560 1500 0 0 0 731 129 0 0 20 0 11 0 987654 1188462592 12000 18446744073709551615';

describe('parseProcStat', () => {
  it('splits after the last parenthesis: state, process group, CPU ticks, start time', () => {
    assert.deepEqual(parseProcStat(LINE), { state: 'S', pgrp: 4242, utime: 731, stime: 129, startTicks: 987654 });
  });

  it('says null for what is not a stat line', () => {
    assert.equal(parseProcStat(''), null);
    assert.equal(parseProcStat('no parenthesis here'), null);
    assert.equal(parseProcStat('1 (x) S 1'), null);
  });

  it('reads this very process on Linux (and null for a pid that cannot exist)', { skip: process.platform !== 'linux' }, () => {
    const own = readProcStat(process.pid);
    assert.ok(own !== null && own.state.length === 1 && own.utime + own.stime >= 0);
    assert.equal(readProcStat(2 ** 31 - 1), null);
  });
});
