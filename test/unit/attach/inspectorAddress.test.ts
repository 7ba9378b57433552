import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatHostPort, parseInspectorAddress } from '../../../src/core/attach/inspectorAddress';
import { UserError } from '../../../src/core/util/errors';

describe('parseInspectorAddress', () => {
  it('reads a pid, host:port (IPv4, a name, IPv6 in brackets) and a ws:// URL', () => {
    assert.deepEqual(parseInspectorAddress('1234'), { kind: 'pid', pid: 1234 });
    assert.deepEqual(parseInspectorAddress(' 127.0.0.1:9229 '), { kind: 'hostPort', host: '127.0.0.1', port: 9229 });
    assert.deepEqual(parseInspectorAddress('localhost:9229'), { kind: 'hostPort', host: 'localhost', port: 9229 });
    assert.deepEqual(parseInspectorAddress('[::1]:9229'), { kind: 'hostPort', host: '::1', port: 9229 });
    assert.deepEqual(parseInspectorAddress('ws://127.0.0.1:9229/0f2c-11'), { kind: 'ws', url: 'ws://127.0.0.1:9229/0f2c-11' });
  });

  it('takes the http:// URL of an inspector as host:port', () => {
    assert.deepEqual(parseInspectorAddress('http://127.0.0.1:9229/json/list'), { kind: 'hostPort', host: '127.0.0.1', port: 9229 });
    assert.deepEqual(parseInspectorAddress('http://[::1]:9230'), { kind: 'hostPort', host: '::1', port: 9230 });
  });

  it('refuses anything else with one line and exit code 2', () => {
    for (const bad of ['', 'hello', '0', '127.0.0.1', '127.0.0.1:99999', ':9229', 'ws://', '1234abc', 'host:port', 'http://127.0.0.1/']) {
      assert.throws(
        () => parseInspectorAddress(bad),
        (err: unknown) => err instanceof UserError && err.exitCode === 2 && !err.message.includes('\n'),
        `'${bad}' should be refused`,
      );
    }
    assert.throws(() => parseInspectorAddress('hello'), /'hello' is not an inspector address: give a pid \(1234\), host:port/);
  });

  it('formats IPv6 hosts with brackets', () => {
    assert.equal(formatHostPort('::1', 9229), '[::1]:9229');
    assert.equal(formatHostPort('127.0.0.1', 9229), '127.0.0.1:9229');
  });
});
