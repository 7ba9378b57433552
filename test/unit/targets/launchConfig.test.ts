import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveLaunchConfig } from '../../../src/core/targets/launchConfig';
import { UserError } from '../../../src/core/util/errors';

const context = { workspaceFolder: '/ws', file: '/ws/src/app.js', env: { HOME: '/home/u', SECRET: 's', PORT: '1' } };

describe('launch.json configurations', () => {
  it('a program with args, runtimeArgs, env and cwd becomes a direct launch with extra flags', () => {
    const r = resolveLaunchConfig(
      {
        type: 'node',
        request: 'launch',
        name: 'api',
        program: '${workspaceFolder}/server.js',
        args: ['--port', '${env:PORT}'],
        runtimeArgs: ['--max-old-space-size=512'],
        cwd: '${workspaceFolder}/api',
        env: { NODE_ENV: 'production', SECRET: null },
      },
      context,
    );
    assert.deepEqual(r.target, { kind: 'script', script: '/ws/server.js', args: ['--port', '1'] });
    assert.equal(r.cwd, '/ws/api');
    assert.deepEqual(r.extraFlags, ['--max-old-space-size=512']);
    assert.equal(r.env.NODE_ENV, 'production');
    assert.equal('SECRET' in r.env, false);
  });

  it('a relative program is relative to cwd; ${file} is the open file', () => {
    assert.deepEqual(resolveLaunchConfig({ type: 'pwa-node', request: 'launch', program: 'app.js', cwd: 'svc' }, context).target, { kind: 'script', script: '/ws/svc/app.js', args: [] });
    assert.deepEqual(resolveLaunchConfig({ type: 'node', request: 'launch', program: '${file}' }, context).target, { kind: 'script', script: '/ws/src/app.js', args: [] });
  });

  it('runtimeExecutable npm becomes a command started with the flags in NODE_OPTIONS', () => {
    const r = resolveLaunchConfig({ type: 'node', request: 'launch', runtimeExecutable: 'npm', runtimeArgs: ['run', 'start'] }, context);
    assert.deepEqual(r.target, { kind: 'command', command: 'npm', args: ['run', 'start'] });
    assert.deepEqual(r.extraFlags, []);
  });

  it('refuses what it cannot run, in one line', () => {
    const refuses = (config: object, pattern: RegExp) =>
      assert.throws(() => resolveLaunchConfig(config, context), (e: unknown) => e instanceof UserError && pattern.test(e.message));
    refuses({ type: 'node', request: 'attach', name: 'a' }, /not a Node launch configuration/);
    refuses({ type: 'node', request: 'launch', name: 'b' }, /has no "program"/);
    refuses({ type: 'node', request: 'launch', name: 'c', program: '${command:pickProcess}' }, /cannot resolve/);
    assert.throws(() => resolveLaunchConfig({ type: 'node', request: 'launch', name: 'd', program: '${file}' }, { ...context, file: undefined }), /no file is open/);
  });
});

describe('typed command lines', () => {
  it('split on spaces with quotes grouping and no shell interpretation', async () => {
    const { splitCommandLine } = await import('../../../src/core/targets/commandLine');
    assert.deepEqual(splitCommandLine(`server.js --name "my app" 'a b' $HOME *.js`), ['server.js', '--name', 'my app', 'a b', '$HOME', '*.js']);
    assert.deepEqual(splitCommandLine('   '), []);
  });
});
