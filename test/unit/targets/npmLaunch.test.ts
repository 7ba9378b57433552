/**
 * What an npm-script launch says before it starts, and the direct launch of the file a plain
 * `node file.js` script runs (which collects deopts too).
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PRESETS } from '../../../src/core/flags/presets';
import {
  directLaunchHint,
  directLaunchOf,
  directLaunchOfNpmScript,
  nodeOptionsLaunchNotice,
  npmScriptCall,
  presetCaveatThroughNodeOptions,
} from '../../../src/core/targets/npmLaunch';
import { tempDir } from '../../../scripts/tempDirs';

function project(scripts: Record<string, string>): string {
  const dir = tempDir('v8-lens-npm-');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'p', private: true, scripts }));
  return dir;
}

describe('npm script calls', () => {
  it('reads npm run / run-script / start / test, with npm options and the args after --', () => {
    assert.deepEqual(npmScriptCall('npm', ['run', 'dev']), { name: 'dev', extraArgs: [] });
    assert.deepEqual(npmScriptCall('npm', ['run-script', 'serve', '--', '--port', '80']), { name: 'serve', extraArgs: ['--port', '80'] });
    assert.deepEqual(npmScriptCall('npm', ['--silent', 'run', 'dev']), { name: 'dev', extraArgs: [] });
    assert.deepEqual(npmScriptCall('npm', ['start']), { name: 'start', extraArgs: [] });
    assert.deepEqual(npmScriptCall('/usr/local/bin/npm', ['t']), { name: 'test', extraArgs: [] });
    assert.equal(npmScriptCall('npm', ['install']), null);
    assert.equal(npmScriptCall('npm', ['run']), null);
    assert.equal(npmScriptCall('npx', ['next', 'dev']), null);
  });
});

describe('the direct launch of a plain node script', () => {
  it('"node [flags] file.js [args]": the file, its args and node flags, from the package folder', () => {
    const dir = project({});
    assert.deepEqual(directLaunchOf('start', 'node --max-old-space-size=512 src/server.js --port 3000', dir, ['--verbose']), {
      scriptName: 'start',
      scriptCommand: 'node --max-old-space-size=512 src/server.js --port 3000',
      script: join(dir, 'src', 'server.js'),
      args: ['--port', '3000', '--verbose'],
      nodeArgs: ['--max-old-space-size=512'],
      folder: dir,
    });
    assert.equal(directLaunchOf('dev', 'next dev', dir), null, 'a framework CLI');
    assert.equal(directLaunchOf('dev', 'NODE_ENV=dev node app.js', dir), null, 'an environment assignment');
    assert.equal(directLaunchOf('dev', 'tsc && node dist/app.js', dir), null, 'more than one command');
  });

  it('finds the script in the nearest package.json, as npm does from a subfolder', async () => {
    const dir = project({ start: 'node app.js', build: 'tsc' });
    mkdirSync(join(dir, 'sub'));
    const direct = await directLaunchOfNpmScript(join(dir, 'sub'), { name: 'start', extraArgs: [] });
    assert.equal(direct?.script, join(dir, 'app.js'));
    assert.equal(await directLaunchOfNpmScript(dir, { name: 'build', extraArgs: [] }), null);
    assert.equal(await directLaunchOfNpmScript(dir, { name: 'missing', extraArgs: [] }), null);
  });

  it('the CLI hint is a command line to copy, relative to where it runs', () => {
    const dir = project({});
    const direct = directLaunchOf('start', 'node --max-old-space-size=512 app.js "a b"', dir)!;
    assert.equal(
      directLaunchHint('npm run start', direct, dir),
      'npm run start runs "node --max-old-space-size=512 app.js "a b"": to collect deopts too, profile the file directly: v8-lens profile --v8-flag=--max-old-space-size=512 -- app.js "a b"',
    );
    assert.match(directLaunchHint('npm start', direct, '/elsewhere'), new RegExp(`-- ${dir.replace(/[/\\\\.]/g, '\\$&')}/app\\.js`));
  });
});

describe('what a NODE_OPTIONS launch says before it starts', () => {
  it('names what it collects, and that deopts need a direct launch when they were asked for', () => {
    assert.equal(
      nodeOptionsLaunchNotice('npm run start', PRESETS['cpu-gc-deopts'].capture),
      'npm run start starts Node itself, so the flags go through NODE_OPTIONS: this run collects the CPU profile, the GC trace and the allocations of every thread, except the CPU profile of a worker thread the app terminates before it stops (a direct launch keeps it); deopts need a direct launch (Node refuses --log-deopt in NODE_OPTIONS)',
    );
    assert.equal(nodeOptionsLaunchNotice('npm start', PRESETS['cpu-gc'].capture), 'npm start starts Node itself, so the flags go through NODE_OPTIONS: this run collects the CPU profile and the GC trace of every thread, except the CPU profile of a worker thread the app terminates before it stops (a direct launch keeps it)');
    assert.equal(nodeOptionsLaunchNotice('npm start', PRESETS.gc.capture), 'npm start starts Node itself, so the flags go through NODE_OPTIONS: this run collects the GC trace of every thread');
  });

  it('a preset with deopts says at pick time what it will not get through npm', () => {
    assert.equal(presetCaveatThroughNodeOptions(PRESETS['cpu-gc-deopts'].capture), 'no deopts through npm (they need a direct launch): collects the CPU profile, the GC trace and the allocations only');
    assert.equal(presetCaveatThroughNodeOptions(PRESETS.deopts.capture), 'collects nothing through npm: deopts need a direct launch');
    assert.equal(presetCaveatThroughNodeOptions(PRESETS['cpu-gc'].capture), null);
  });
});
