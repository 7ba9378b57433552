/**
 * The flag model against what real Node binaries report about themselves (every Node in NODES), not
 * against hand-written option lists.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { CaptureOptions } from '../../src/core/flags/captureOptions';
import { planDirectLaunch, planNodeOptionsLaunch, quoteForNodeOptions } from '../../src/core/flags/launchPlan';
import { probeNodeRuntime, type NodeRuntime } from '../../src/core/flags/nodeRuntime';
import { DEFAULT_ALLOC_SAMPLING_BYTES, PRESETS } from '../../src/core/flags/presets';
import { validateUserFlag } from '../../src/core/flags/userFlags';
import { runLayout } from '../../src/core/run/runLayout';
import { UserError } from '../../src/core/util/errors';
import { NODES } from './cliHarness';

let node: NodeRuntime;
before(async () => {
  node = await probeNodeRuntime('node');
});

function rejects(fn: () => unknown, pattern: RegExp) {
  assert.throws(fn, (err: unknown) => err instanceof UserError && pattern.test(err.message) && !err.message.includes('\n'));
}

const options = (over: Partial<CaptureOptions> = {}): CaptureOptions => ({
  capture: PRESETS['cpu-gc-deopts'].capture,
  samplingIntervalUs: 500,
  semiSpaceMB: 64,
  stableDeopts: false,
  extraFlags: [],
  allocSamplingBytes: DEFAULT_ALLOC_SAMPLING_BYTES,
  exactAllocSites: false,
  ...over,
});

describe('probing the target Node', () => {
  it('reads the version and the option lists of the binary itself', () => {
    assert.equal(node.version, process.version);
    assert.equal(node.v8Flags.get('max-semi-space-size')?.type, 'size_t');
    assert.equal(node.v8Flags.get('trace-gc')?.type, 'bool');
    assert.ok(node.nodeFlags.has('cpu-prof'));
    assert.ok(node.allowedInNodeOptions.has('max-semi-space-size'));
    assert.ok(!node.allowedInNodeOptions.has('trace-gc'), 'Node refuses --trace-gc in NODE_OPTIONS');
    assert.ok(!node.allowedInNodeOptions.has('cpu-prof'), 'Node refuses --cpu-prof in NODE_OPTIONS');
  });

  it('reports a missing binary in one line', async () => {
    await assert.rejects(probeNodeRuntime('/no/such/node'), (e: unknown) => e instanceof UserError && /Node\.js not found/.test(e.message));
  });
});

describe('validating user flags', () => {
  it('accepts V8 flags in both spellings, negated booleans and Node flags', () => {
    assert.equal(validateUserFlag('--max_old_space_size=512', node).name, 'max-old-space-size');
    assert.deepEqual(
      (({ name, negated, origin }) => ({ name, negated, origin }))(validateUserFlag('--no-concurrent-recompilation', node)),
      { name: 'concurrent-recompilation', negated: true, origin: 'v8' },
    );
    assert.equal(validateUserFlag('--enable-source-maps', node).origin, 'node');
  });

  it('refuses typos, wrong values and flags V8 Lens owns, each in one line', () => {
    rejects(() => validateUserFlag('--max-semi-space-sise=64', node), /unknown flag .* did you mean --max-semi-space-size\?/);
    rejects(() => validateUserFlag('--max-semi-space-size', node), /needs a number/);
    rejects(() => validateUserFlag('--max-semi-space-size=big', node), /whole number/);
    rejects(() => validateUserFlag('--trace-gc=1', node), /takes no value/);
    rejects(() => validateUserFlag('--logfile=x.log', node), /set by V8 Lens itself/);
    rejects(() => validateUserFlag('max-old-space-size=5', node), /is not a flag/);
  });
});

describe('launch plans', () => {
  const layout = runLayout('/tmp/run with space');

  it('direct: Node\'s own capture flags and the user\'s on the command line, no V8 trace flag of ours (the preload sets them), the preload last', () => {
    const plan = planDirectLaunch(node, options({ stableDeopts: true, extraFlags: ['--max-old-space-size=256'] }), layout, '/x/preload.js', '/app/server.js', ['--port', '1']);
    assert.deepEqual(plan.args, [
      '--max-old-space-size=256',
      '--max-semi-space-size=64',
      '--cpu-prof',
      '--cpu-prof-dir=/tmp/run with space/cpu',
      '--cpu-prof-interval=500',
      // No V8 log beside a CPU profile: V8 writes none of the app's code or deopts there while the
      // profiler runs; the deopts and optimizations come from the code traces. Neither the GC trace
      // nor the code traces' flags: any V8 flag here makes Node load every built-in without its
      // code cache, the preload's included (preloadStartup.test.ts).
      '--no-concurrent-recompilation',
      // The preload's settings, for a child the app forks with an environment of its own.
      '--env-file=/tmp/run with space/agent.env',
      '--require',
      '/x/preload.js',
      '/app/server.js',
      '--port',
      '1',
    ]);
    assert.equal(plan.env.V8_LENS_AGENT_DIR, '/tmp/run with space/agent');
    // The preload switches --trace-gc and --trace-pretenuring-statistics on before the app's first line.
    assert.equal(plan.env.V8_LENS_TRACE_GC, '1');
    assert.equal(planDirectLaunch(node, options({ gcPhases: true }), layout, '/x/preload.js', '/app/server.js', []).env.V8_LENS_TRACE_GC, 'nvp');
    // Each process and thread writes its own code trace there: the preload redirects it, then
    // switches --trace-deopt-verbose and --trace-opt on (see codeTraceRedirect.ts).
    assert.equal(plan.env.V8_LENS_CODE_TRACE_DIR, '/tmp/run with space/v8');
    assert.equal(plan.envFile, '/tmp/run with space/agent.env');
    assert.ok(node.nodeFlags.has('env-file'), 'every Node tested has --env-file (20.6+)');
  });

  it("direct: no --env-file when a path cannot be written in one, or the target's Node lacks it", () => {
    const odd = planDirectLaunch(node, options(), runLayout(`/tmp/it's a "run"`), '/x/preload.js', '/app/server.js', []);
    assert.equal(odd.envFile, null);
    assert.equal(odd.args.some((a) => a.startsWith('--env-file')), false);
    const old = planDirectLaunch({ ...node, nodeFlags: new Set([...node.nodeFlags].filter((f) => f !== 'env-file')) }, options(), layout, '/x/preload.js', '/app/server.js', []);
    assert.equal(old.envFile, null);
    assert.equal(old.args.some((a) => a.startsWith('--env-file')), false);
  });

  it('direct, deopts without a CPU profile: the V8 log, where V8 then writes every deopt and code object', () => {
    const plan = planDirectLaunch(node, options({ capture: { cpu: false, gc: false, deopts: true, alloc: false } }), layout, '/x/preload.js', '/app/server.js', []);
    assert.deepEqual(
      plan.args.filter((a) => /^--(log|logfile|redirect)/.test(a)),
      ['--log-deopt', '--log-code', '--logfile=/tmp/run with space/v8/v8.log', '--redirect-code-traces', '--redirect-code-traces-to=/tmp/run with space/v8/code-startup.asm'],
    );
    assert.equal(plan.env.V8_LENS_CODE_TRACE_DIR, undefined);
  });

  it('refuses a semi-space given twice and impossible numbers', () => {
    rejects(() => planDirectLaunch(node, options({ extraFlags: ['--max-semi-space-size=8'] }), layout, 'p', 's', []), /given twice/);
    rejects(() => planDirectLaunch(node, options({ samplingIntervalUs: 0 }), layout, 'p', 's', []), /sampling interval/);
    rejects(() => planDirectLaunch(node, options({ semiSpaceMB: 1.5 }), layout, 'p', 's', []), /semi-space size/);
  });

  it('NODE_OPTIONS: only what Node accepts there; the preload switches on the rest; deopts are named as missing', () => {
    const plan = planNodeOptionsLaunch(node, options(), layout, '/x/pre load.js', 'npm', ['run', 'start'], '--enable-source-maps');
    assert.equal(plan.env.NODE_OPTIONS, '--enable-source-maps --max-semi-space-size=64 --require="/x/pre load.js"');
    assert.equal(plan.env.V8_LENS_TRACE_GC, '1');
    assert.equal(plan.env.V8_LENS_CPU_PROFILE_DIR, '/tmp/run with space/cpu');
    assert.deepEqual(plan.args, ['run', 'start']);
    assert.ok(plan.limitations.some((l) => /deopts need a direct launch/.test(l)));
    assert.deepEqual(plan.capture, { cpu: true, gc: true, deopts: false, alloc: true }, 'the run records that it does not collect deopts');
    rejects(() => planNodeOptionsLaunch(node, options({ extraFlags: ['--min-semi-space-size=16'] }), layout, 'p', 'npm', [], undefined), /cannot be passed through NODE_OPTIONS/);
  });

  it('allocations: the interval reaches the preload; exact sites turn inlining off on the command line, or through the preload', () => {
    const direct = planDirectLaunch(node, options({ allocSamplingBytes: 4096, exactAllocSites: true }), layout, '/x/preload.js', '/app/server.js', []);
    assert.equal(direct.env.V8_LENS_ALLOC_DIR, '/tmp/run with space/heap');
    assert.equal(direct.env.V8_LENS_ALLOC_INTERVAL_BYTES, '4096');
    const at = direct.args.indexOf('--require');
    assert.deepEqual(direct.args.slice(at - 3, at), ['--no-turbo-inlining', '--no-maglev-inlining', '--env-file=/tmp/run with space/agent.env']);
    const typed = planDirectLaunch(node, options({ exactAllocSites: true, extraFlags: ['--no-turbo-inlining'] }), layout, 'p', 's', []);
    assert.equal(typed.args.filter((a) => a === '--no-turbo-inlining').length, 1, 'said once even when typed too');
    // NODE_OPTIONS refuses V8's inlining flags: the preload sets them before the app runs.
    const npm = planNodeOptionsLaunch(node, options({ exactAllocSites: true }), layout, '/x/preload.js', 'npm', ['start'], undefined);
    assert.equal(npm.env.V8_LENS_EXACT_ALLOC_SITES, '1');
    assert.doesNotMatch(npm.env.NODE_OPTIONS!, /inlining/);
    assert.equal(planDirectLaunch(node, options(), layout, 'p', 's', []).args.includes('--no-turbo-inlining'), false, 'inlining stays on unless asked');
    rejects(() => planDirectLaunch(node, options({ allocSamplingBytes: 100 }), layout, 'p', 's', []), /allocation sampling interval must be a whole number of bytes from 256/);
    rejects(() => planDirectLaunch(node, options({ capture: PRESETS['cpu-gc'].capture, exactAllocSites: true }), layout, 'p', 's', []), /exact allocation sites need allocations/);
  });

  it('quotes NODE_OPTIONS values the way Node parses them', () => {
    assert.equal(quoteForNodeOptions('/plain/path.js'), '/plain/path.js');
    assert.equal(quoteForNodeOptions('C:\\Users\\a b\\p.js'), '"C:\\\\Users\\\\a b\\\\p.js"');
    assert.equal(quoteForNodeOptions('say "hi"'), '"say \\"hi\\""');
  });

  it('validates against the target Node, not ours (a V8 flag only some versions know)', async () => {
    // `node --v8-options` of each: V8 12.4 and 13.6 (Node 22, 24) have it; V8 11.3 (Node 20) not yet,
    // V8 14.6 (Node 26) no more.
    const knows = (major: number) => major === 22 || major === 24;
    for (const n of NODES) {
      const runtime = await probeNodeRuntime(n.path);
      assert.equal(runtime.major, n.major);
      assert.equal(runtime.v8Flags.has('scavenger-max-new-space-capacity-mb'), knows(n.major), n.label);
      if (knows(n.major)) assert.equal(validateUserFlag('--scavenger-max-new-space-capacity-mb=16', runtime).origin, 'v8', n.label);
      else rejects(() => validateUserFlag('--scavenger-max-new-space-capacity-mb=16', runtime), /unknown flag/);
    }
  });
});
