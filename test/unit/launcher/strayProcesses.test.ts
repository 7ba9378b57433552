import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { describe, it } from 'node:test';
import { readProcStat } from '../../../src/core/launcher/procStats';
import { LAUNCH_MARK_ENV, findStrayProcesses, newLaunchMark } from '../../../src/core/launcher/strayProcesses';

function sleeper(mark: string, detached: boolean): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { detached, stdio: 'ignore', env: { ...process.env, [LAUNCH_MARK_ENV]: mark } });
  return new Promise((resolve, reject) => child.once('spawn', () => resolve(child)).once('error', reject));
}

describe('findStrayProcesses', { skip: process.platform !== 'linux' }, () => {
  it('finds a process carrying the launch mark outside the group, and only that one', async () => {
    const mark = newLaunchMark();
    const ownGroup = readProcStat(process.pid)!.pgrp;
    const inGroup = await sleeper(mark, false);
    const detached = await sleeper(mark, true);
    const otherLaunch = await sleeper(newLaunchMark(), true);
    try {
      const strays = findStrayProcesses(mark, ownGroup);
      assert.deepEqual(strays.map((s) => s.pid), [detached.pid]);
      assert.match(strays[0]!.command, /node.* -e setTimeout/);
      assert.deepEqual(findStrayProcesses(`${mark}x`, ownGroup), [], 'a mark is matched whole');
    } finally {
      for (const child of [inGroup, detached, otherLaunch]) child.kill('SIGKILL');
    }
  });

  it('marks differ from launch to launch', () => {
    assert.notEqual(newLaunchMark(), newLaunchMark());
  });
});
