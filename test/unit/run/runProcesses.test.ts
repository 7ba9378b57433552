import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { readProcStat } from '../../../src/core/launcher/procStats';
import { RunProcesses } from '../../../src/core/run/runProcesses';
import { tempDir } from '../../../scripts/tempDirs';

describe('RunProcesses', () => {
  it('knows the launched process, and every process the preload wrote a record for', () => {
    const agentDir = tempDir('v8-lens-agent-');
    writeFileSync(join(agentDir, '4243.json'), '{}');
    const processes = new RunProcesses(4242, agentDir);
    assert.equal(processes.has(4242), true);
    assert.equal(processes.has(4243), true, 'a forked child or cluster worker');
    assert.equal(processes.has(1), false);
    assert.equal(processes.has(99_999_999), false);
  });

  it('checks a pid found not to be the run’s again after a while (a child whose record comes later)', async () => {
    const agentDir = tempDir('v8-lens-agent-');
    const processes = new RunProcesses(4242, agentDir);
    assert.equal(processes.has(4244), false);
    writeFileSync(join(agentDir, '4244.json'), '{}');
    assert.equal(processes.has(4244), false, 'not rechecked for every line');
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(processes.has(4244), true);
  });

  it('on Linux, knows a process of the group without a record', { skip: process.platform !== 'linux' }, () => {
    const ownGroup = readProcStat(process.pid)!.pgrp;
    const processes = new RunProcesses(ownGroup, tempDir('v8-lens-agent-'));
    assert.equal(processes.has(process.pid), true);
  });
});
