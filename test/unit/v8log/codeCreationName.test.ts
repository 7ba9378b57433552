import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCodeCreationName } from '../../../src/core/v8log/codeCreationName';
import { parseCodeState, tierLabel } from '../../../src/core/v8log/codeState';

const parsed = (text: string) => {
  const r = parseCodeCreationName(text);
  return r === null ? null : [r.name, r.url, r.line, r.column];
};

describe('parseCodeCreationName', () => {
  it('splits the function name from the url and start position', () => {
    assert.deepEqual(parsed('add /ABS/deopts.js:3:13'), ['add', '/ABS/deopts.js', 3, 13]);
    assert.deepEqual(parsed(' /ABS/deopts.js:1:1'), ['', '/ABS/deopts.js', 1, 1]);
  });
  it('handles spaces in names and in paths', () => {
    assert.deepEqual(parsed('get ñx /ABS/ü dir/日本.js:4:9'), ['get ñx', '/ABS/ü dir/日本.js', 4, 9]);
    assert.deepEqual(parsed('get [Symbol.iterator] /a b/c.js:1:2'), ['get [Symbol.iterator]', '/a b/c.js', 1, 2]);
    assert.deepEqual(parsed('Shape.area file:///ABS/we%20ird,dir/lazy.mjs:20:33'), ['Shape.area', '/ABS/we ird,dir/lazy.mjs', 20, 33]);
  });
  it('handles scheme urls, Windows paths and names of scripts without a path', () => {
    assert.deepEqual(parsed('runMain node:internal/modules/run_main:123:20'), ['runMain', 'node:internal/modules/run_main', 123, 20]);
    assert.deepEqual(parsed('f C:\\app dir\\x.js:2:3'), ['f', 'C:\\app dir\\x.js', 2, 3]);
    assert.deepEqual(parsed('f [eval]:1:5'), ['f', '[eval]', 1, 5]);
  });
  it('returns null for names without a position (builtins, stubs)', () => {
    assert.equal(parseCodeCreationName('ArrayPrototypePush'), null);
  });
});

describe('parseCodeState', () => {
  it('maps every marker V8 writes, including Node 24 suffixes', () => {
    const t = (m: string) => {
      const s = parseCodeState(m);
      return [s.tier, s.optimizationDisabled, s.contextSpecialized];
    };
    assert.deepEqual(t('~'), ['interpreted', false, false]);
    assert.deepEqual(t('^'), ['sparkplug', false, false]);
    assert.deepEqual(t('+'), ['maglev', false, false]);
    assert.deepEqual(t('*'), ['turbofan', false, false]);
    assert.deepEqual(t("+'"), ['maglev', false, true]);
    assert.deepEqual(t("*'"), ['turbofan', false, true]);
    assert.deepEqual(t(''), ['interpreted', true, false]);
  });
  it('keeps unknown markers as an unknown tier', () => {
    assert.deepEqual(parseCodeState('%'), { marker: '%', tier: 'unknown', optimizationDisabled: false, contextSpecialized: false });
    assert.equal(parseCodeState("*''").tier, 'unknown');
  });
  it('labels tiers for display', () => {
    assert.deepEqual(['interpreted', 'sparkplug', 'maglev', 'turbofan'].map((t) => tierLabel(t as never)), ['Ignition', 'Sparkplug', 'Maglev', 'TurboFan']);
  });
});
