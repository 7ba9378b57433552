/** The front doors' one options model, and the lab's launch planned beside the profile launches. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { STABLE_DEOPTS_FLAG, captureOptionsFor } from '../../../src/core/flags/captureOptions';
import { planSweepRunLaunch } from '../../../src/core/flags/launchPlan';
import { DEFAULT_ALLOC_SAMPLING_BYTES, DEFAULT_SAMPLING_INTERVAL_US, PRESETS } from '../../../src/core/flags/presets';
import { AGENT_ENV } from '../../../src/core/preload/agentEnv';

describe('captureOptionsFor', () => {
  it('fills the defaults a front door left out', () => {
    assert.deepEqual(captureOptionsFor({ preset: 'cpu-gc' }), {
      capture: PRESETS['cpu-gc'].capture,
      samplingIntervalUs: DEFAULT_SAMPLING_INTERVAL_US,
      semiSpaceMB: null,
      stableDeopts: false,
      extraFlags: [],
      allocSamplingBytes: DEFAULT_ALLOC_SAMPLING_BYTES,
      exactAllocSites: false,
    });
  });

  it('takes the allocation sampling interval and exact sites as chosen', () => {
    const o = captureOptionsFor({ preset: 'cpu-gc-deopts', allocSamplingBytes: 65536, exactAllocSites: true });
    assert.equal(o.allocSamplingBytes, 65536);
    assert.equal(o.exactAllocSites, true);
    assert.equal(o.capture.alloc, true, 'the default preset samples allocations');
  });

  it('treats stable deopts the same whether asked by name (--stable-deopts) or typed as its flag', () => {
    const byName = captureOptionsFor({ preset: 'cpu-gc-deopts', stableDeopts: true, extraFlags: ['--max-old-space-size=512'] });
    const typed = captureOptionsFor({ preset: 'cpu-gc-deopts', extraFlags: ['--max-old-space-size=512', STABLE_DEOPTS_FLAG] });
    assert.deepEqual(typed, byName);
    assert.equal(typed.stableDeopts, true);
    assert.deepEqual(typed.extraFlags, ['--max-old-space-size=512']);
  });

  it('does not share the preset table with the caller', () => {
    const options = captureOptionsFor({ preset: 'gc' });
    options.capture.cpu = true;
    assert.equal(PRESETS.gc.capture.cpu, false);
  });
});

describe('planSweepRunLaunch', () => {
  it('puts the swept value after the user flags, the preload before the script, and the agent env', () => {
    const run = { nodeArgs: ['--max-semi-space-size=8'], flag: 'max-semi-space-size', value: 64, pinMinSemiSpace: true, allocSamplingBytes: null, cpuSamplingUs: null };
    const plan = planSweepRunLaunch('/usr/bin/node', run, { agentDir: '/r/agent', heapDir: '/r/heap', cpuDir: '/r/cpu' }, '/p.js', '/s.js', ['--port', '0'], 1500);
    assert.equal(plan.command, '/usr/bin/node');
    assert.deepEqual(plan.args, ['--max-semi-space-size=8', '--trace-gc', '--trace-pretenuring-statistics', '--max-semi-space-size=64', '--min-semi-space-size=64', '--require', '/p.js', '/s.js', '--port', '0']);
    assert.deepEqual(plan.env, { [AGENT_ENV.dir]: '/r/agent', [AGENT_ENV.exitGraceMs]: '1500' });
  });

  it('samples allocations into the run\'s heap folder when asked, with nothing on the command line', () => {
    const run = { nodeArgs: [], flag: 'max-semi-space-size', value: 64, pinMinSemiSpace: false, allocSamplingBytes: 32768, cpuSamplingUs: null };
    const plan = planSweepRunLaunch('node', run, { agentDir: '/r/agent', heapDir: '/r/heap', cpuDir: '/r/cpu' }, '/p.js', '/s.js', [], 1500);
    assert.deepEqual(plan.env, { [AGENT_ENV.dir]: '/r/agent', [AGENT_ENV.exitGraceMs]: '1500', [AGENT_ENV.allocDir]: '/r/heap', [AGENT_ENV.allocIntervalBytes]: '32768' });
    assert.deepEqual(plan.args, ['--trace-gc', '--trace-pretenuring-statistics', '--max-semi-space-size=64', '--require', '/p.js', '/s.js']);
  });

  it('keeps a CPU profile in the run\'s cpu folder when asked, so the lab run opens as a report', () => {
    const run = { nodeArgs: [], flag: 'max-semi-space-size', value: 64, pinMinSemiSpace: false, allocSamplingBytes: null, cpuSamplingUs: 1000 };
    const plan = planSweepRunLaunch('node', run, { agentDir: '/r/agent', heapDir: '/r/heap', cpuDir: '/r/cpu' }, '/p.js', '/s.js', [], 1500);
    assert.deepEqual(plan.args, ['--trace-gc', '--trace-pretenuring-statistics', '--max-semi-space-size=64', '--cpu-prof', '--cpu-prof-dir=/r/cpu', '--cpu-prof-interval=1000', '--require', '/p.js', '/s.js']);
  });
});
