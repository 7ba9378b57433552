/** Where SIGUSR1 would open a process's inspector, read from its command line and NODE_OPTIONS. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ExposedInspectorError, configuredInspectorHost, isLoopbackBind } from '../../../src/core/attach/inspectorExposure';

describe('configuredInspectorHost', () => {
  it('reads the host of --inspect-port, --inspect and its variants, in either spelling', () => {
    assert.equal(configuredInspectorHost(['node', '--inspect-port=0.0.0.0:39229', 'app.js'], null), '0.0.0.0');
    assert.equal(configuredInspectorHost(['node', '--inspect-port', '0.0.0.0:39229', 'app.js'], null), '0.0.0.0');
    assert.equal(configuredInspectorHost(['node', '--inspect=[::]:0', 'app.js'], null), '::');
    assert.equal(configuredInspectorHost(['node', '--inspect-brk=192.168.1.5', 'app.js'], null), '192.168.1.5');
    assert.equal(configuredInspectorHost(['node', '--inspect-port=9230', 'app.js'], null), null, 'a port alone keeps the default host');
    assert.equal(configuredInspectorHost(['node', 'app.js'], null), null);
  });

  it('looks past options that take a value, and not into the app\'s own arguments', () => {
    assert.equal(configuredInspectorHost(['node', '--require', './tracing.js', '--inspect-port=0.0.0.0:1', 'app.js'], null), '0.0.0.0');
    assert.equal(configuredInspectorHost(['node', 'app.js', '--inspect-port=0.0.0.0:1'], null), null);
  });

  it('NODE_OPTIONS counts, after the command line (as Node reads them)', () => {
    assert.equal(configuredInspectorHost(['node', 'app.js'], '--max-old-space-size=512 --inspect-port=0.0.0.0:9229'), '0.0.0.0');
    assert.equal(configuredInspectorHost(['node', '--inspect-port=0.0.0.0:1', 'app.js'], '--inspect-port=127.0.0.1:2'), '127.0.0.1');
  });
});

describe('isLoopbackBind and the refusal', () => {
  it('only loopback is private; every-interface and network addresses are not', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost', '::ffff:127.0.0.1']) assert.equal(isLoopbackBind(host), true, host);
    for (const host of ['0.0.0.0', '::', '192.168.1.5', 'example.com']) assert.equal(isLoopbackBind(host), false, host);
  });

  it('says where, why it matters and how to go on, in one line (exit code 2)', () => {
    const err = new ExposedInspectorError(42, '0.0.0.0:39229', 'open');
    assert.equal(err.exitCode, 2);
    assert.doesNotMatch(err.message, /\n/);
    assert.match(err.message, /pid 42's inspector listens on 0\.0\.0\.0:39229, not on loopback: .*no authentication.*--allow-remote/);
  });
});
