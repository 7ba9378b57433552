/** What each of the app's functions calls, from a CPU profile: the names inlining may hide in a heap profile. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { functionPlaceKey, scriptCalleesOf } from '../../../src/core/cpu/cpuModel';
import { parseCpuProfile } from '../../../src/core/cpu/parseCpuProfile';
import { profileText } from './cpuTestHelpers';

const APP = 'file:///srv/app/server.js';

/**
 * (root) → onRequest (server.js:47:34) → handle (32:16) → buildOrder (18:20) → deep (5:1) → deeper (2:1)
 *                                       → emit (node:events) → listener (60:1)
 */
const profile = parseCpuProfile(
  profileText({
    nodes: [
      { id: 1, name: '(root)', children: [2] },
      { id: 2, name: '', url: APP, line0: 46, col0: 33, children: [3, 7] },
      { id: 3, name: 'handle', url: APP, line0: 31, col0: 15, children: [4] },
      { id: 4, name: 'buildOrder', url: APP, line0: 17, col0: 19, children: [5] },
      { id: 5, name: 'deep', url: APP, line0: 4, col0: 0, children: [6] },
      { id: 6, name: 'deeper', url: APP, line0: 1, col0: 0 },
      { id: 7, name: 'emit', url: 'node:events', line0: 10, col0: 0, children: [8] },
      { id: 8, name: 'listener', url: APP, line0: 59, col0: 0 },
    ],
    samples: [4, 6, 8],
    timeDeltas: [100, 100, 100],
  }),
  'callees.cpuprofile',
);

describe('scriptCalleesOf', () => {
  const callees = scriptCalleesOf(profile);
  const of = (line: number, column: number) => [...(callees.get(functionPlaceKey('/srv/app/server.js', line, column)) ?? [])];

  it('names the app functions below each one through up to three levels of app code, nearest first', () => {
    assert.deepEqual(of(47, 34), ['handle', 'buildOrder', 'deep']);
    assert.deepEqual(of(32, 16), ['buildOrder', 'deep', 'deeper']);
  });

  it('stops at Node\'s own code: a listener run by node:events is not the handler\'s doing', () => {
    assert.ok(!of(47, 34).includes('listener'));
    assert.deepEqual(of(60, 1), []);
  });

  it('keys a file:// URL and its path alike, as CPU and heap profiles name one script', () => {
    assert.equal(functionPlaceKey(APP, 1, 2), functionPlaceKey('/srv/app/server.js', 1, 2));
    assert.equal(functionPlaceKey('node:events', 1, 2), 'node:events\u00001\u00002');
  });
});
