/** The compare page's figures and changes in their units (webview/compare/compareFormat.ts: pure, no DOM). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fmtMetric, fmtMetricChange } from '../../../webview/compare/compareFormat';

describe('compare page: values and changes', () => {
  it('no change is a bare zero in its unit, every other change is signed', () => {
    // Two runs at the same fixed rate served the same requests per second (a CI run of the browser test).
    assert.equal(fmtMetricChange('req/s', 0), '0 req/s');
    assert.equal(fmtMetricChange('req/s', -0), '0 req/s');
    assert.equal(fmtMetricChange('req/s', 0.04), '+0.0 req/s');
    assert.equal(fmtMetricChange('req/s', -12.34), '\u221212.3 req/s');
    assert.equal(fmtMetricChange('req/s', 1234.5), '+1,235 req/s');
    assert.equal(fmtMetricChange('ms', 0), '0 ms');
    assert.equal(fmtMetricChange('share', 0.0123), '+1.23 pp');
  });
  it('values keep their precision', () => {
    assert.equal(fmtMetric('req/s', 3392.4), '3,392 req/s');
    assert.equal(fmtMetric('req/s', 42.25), '42.3 req/s');
    assert.equal(fmtMetric('req/s', 0), '0 req/s');
  });
});
