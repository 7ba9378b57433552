/**
 * The semi-space a run asked for, wherever it was given (issue 21: after Apply wrote
 * `--max-semi-space-size=64` into launch.json's runtimeArgs, the report said "asked: V8 default"),
 * and the words the report header and the compare page put among the flags.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lastSemiSpaceValue, nodeArgsBefore, semiSpaceAskedMB, semiSpaceAskedOf } from '../../../src/core/flags/semiSpaceAsked';
import { semiSpaceFlagText } from '../../../src/shared/youngGenerationText';
import type { SessionRecord } from '../../../src/shared/model/session';

function session(launch: Partial<SessionRecord['launch']>, flags: Partial<SessionRecord['flags']> = {}, mode: SessionRecord['mode'] = 'launch'): SessionRecord {
  return {
    mode,
    target: { kind: 'script', program: '/app/app.js', args: ['--max-semi-space-size=99'], cwd: '/app' },
    launch: { mode: 'direct', command: 'node', argv: [], env: {}, limitations: [], ...launch },
    flags: { preset: null, capture: { cpu: true, gc: true, deopts: true }, samplingIntervalUs: 1000, semiSpaceMB: null, stableDeopts: false, extra: [], inheritedNodeOptions: null, timeoutS: null, ...flags },
  } as unknown as SessionRecord;
}

describe('the semi-space asked for', () => {
  it('reads every spelling; the last one wins, as in V8', () => {
    assert.equal(lastSemiSpaceValue(['--max-semi-space-size=64']), 64);
    assert.equal(lastSemiSpaceValue(['--max_semi_space_size', '32', '--trace-gc']), 32);
    assert.equal(lastSemiSpaceValue(['--max-semi-space-size=8', '--max-semi-space-size=16']), 16);
    assert.equal(lastSemiSpaceValue(['--max-semi-space-size=x', '--max-old-space-size=64']), null);
    assert.equal(lastSemiSpaceValue([]), null);
  });

  it("V8 Lens's option first, then the command line over NODE_OPTIONS (Node reads NODE_OPTIONS first)", () => {
    assert.equal(semiSpaceAskedMB({ option: 4, nodeOptions: '--max-semi-space-size=8', execArgv: ['--max-semi-space-size=2'] }), 4);
    assert.equal(semiSpaceAskedMB({ option: null, nodeOptions: '--max-semi-space-size=8', execArgv: ['--max-semi-space-size=2'] }), 2);
    assert.equal(semiSpaceAskedMB({ option: null, nodeOptions: '--require "/x y/p.js" --max-semi-space-size=8', execArgv: ['--trace-gc'] }), 8);
    assert.equal(semiSpaceAskedMB({ option: null, nodeOptions: null, execArgv: [] }), null);
  });

  it("a direct launch's node arguments stop at the script: the app's own arguments are not Node's", () => {
    assert.deepEqual(nodeArgsBefore(['--cpu-prof', '--max-semi-space-size=64', '/app/app.js', '--max-semi-space-size=99'], '/app/app.js'), ['--cpu-prof', '--max-semi-space-size=64']);
    // runtimeArgs of a launch configuration are among the launch's argv before the script.
    const fromRuntimeArgs = session({ argv: ['--trace-gc', '--max-semi-space-size=64', '--require', '/x/preload.js', '/app/app.js', '--max-semi-space-size=99'] }, { extra: ['--max-semi-space-size=64'] });
    assert.equal(semiSpaceAskedOf(fromRuntimeArgs, undefined), 64);
  });

  it("the app's own execArgv when its agent recorded it (an npm script's node command), NODE_OPTIONS as the target saw it", () => {
    const npm = session({ mode: 'node-options', command: 'npm', argv: ['run', 'start'], env: { NODE_OPTIONS: '--require /x/preload.js' } });
    assert.equal(semiSpaceAskedOf(npm, ['--max-semi-space-size=32']), 32);
    assert.equal(semiSpaceAskedOf(npm, []), null);
    const inherited = session({ argv: ['--trace-gc', '/app/app.js'] }, { inheritedNodeOptions: '--max-semi-space-size=8' });
    assert.equal(semiSpaceAskedOf(inherited, undefined), 8);
    assert.equal(semiSpaceAskedOf(session({ argv: ['/app/app.js'] }, { semiSpaceMB: 16 }), undefined), 16);
    assert.equal(semiSpaceAskedOf(session({ argv: ['--max-semi-space-size=64'] }, {}, 'attach'), undefined), null, 'an attached process: not known');
    assert.equal(semiSpaceAskedOf(null, undefined), null);
  });

  it('among the flags: said once, never "V8 default" beside the flag that set it', () => {
    assert.equal(semiSpaceFlagText(null, []), 'semi-space: V8 default');
    assert.equal(semiSpaceFlagText(64, ['--max-semi-space-size=64']), null, 'runtimeArgs shown beside it already say it');
    assert.equal(semiSpaceFlagText(64, ['--max-semi-space-size', '64']), null);
    assert.equal(semiSpaceFlagText(64, []), '--max-semi-space-size=64', 'given where the flags do not show (an npm script)');
    assert.equal(semiSpaceFlagText(2, ['--max-semi-space-size=8']), '--max-semi-space-size=2', 'a shown value that lost to another is not the answer');
  });
});
