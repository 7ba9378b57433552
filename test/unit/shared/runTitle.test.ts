/** A run's title and, under load, the URL path the run lists show beside it (issue 21: a /hash run and a /price run looked alike). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadedPath, runTargetTitle } from '../../../src/shared/runTitle';

describe('run titles', () => {
  it('what was picked, else the file name', () => {
    assert.equal(runTargetTitle({ target: { kind: 'script', program: '/app/server.js', args: [], cwd: '/app' } }), 'server.js');
    assert.equal(runTargetTitle({ target: { kind: 'command', program: 'npm', args: ['run', 'start'], cwd: '/app', name: 'npm run start' } }), 'npm run start');
  });

  it('the loaded URL by its path and query: host and port change from run to run', () => {
    assert.equal(loadedPath('http://127.0.0.1:41234/hash'), '/hash');
    assert.equal(loadedPath('http://localhost:3000/price?id=3&x=%20'), '/price?id=3&x=%20');
    assert.equal(loadedPath('http://[::1]:8080/'), '/');
    assert.equal(loadedPath('auto'), 'auto', 'not a URL: as it is');
  });
});
