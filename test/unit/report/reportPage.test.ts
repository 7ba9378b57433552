/**
 * The report page builders, without a browser: the CSPs, and that no model data can end the
 * embedded JSON's <script> element.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { jsonForScript, standaloneReportHtml, webviewPageHtml } from '../../../src/core/report/reportPage';
import type { ReportModel } from '../../../src/core/report/reportModel';
import { emptySummary, type Summary } from '../../../src/shared/model/summary';
import { buildCpuModel } from '../../../src/core/cpu/cpuModel';
import { parseCpuProfile } from '../../../src/core/cpu/parseCpuProfile';
import { buildTimeProfile } from '../../../src/core/report/timeProfile';
import { unpackTimeProfile } from '../../../src/shared/profile/unpackTimeProfile';
import { SPEEDSCOPE_DIR } from '../cpu/cpuTestHelpers';

const NONCE = 'abcdefghijklmnopqrstuv==';
/** The export's palette as the build takes it (to dist/webview/standalone.css). */
const THEME = readFileSync(join(__dirname, '..', '..', '..', 'webview', 'common', 'standalone.css'), 'utf8');

function model(title: string): ReportModel {
  const summary: Summary = emptySummary({ kind: 'cpuprofile', path: '/x' });
  return { title, source: '/x', summary, session: null, flame: null, gcEvents: [] };
}

describe('webviewPageHtml', () => {
  it('has the strict CSP with the nonce and no unsafe-inline', () => {
    const html = webviewPageHtml({ cspSource: 'https://file+.vscode-resource.vscode-cdn.net', nonce: NONCE, scriptUri: 'https://x/report.js', styleUris: ['https://x/report.css'] });
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /style-src https:\/\/file\+\.vscode-resource\.vscode-cdn\.net;/);
    assert.match(csp, new RegExp(`script-src 'nonce-${NONCE}'`));
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval/);
    assert.match(html, /<script nonce="abcdefghijklmnopqrstuv==" src="https:\/\/x\/report.js"><\/script>/);
    assert.match(html, /<link rel="stylesheet" href="https:\/\/x\/report.css">/);
  });

  it('refuses a weak nonce', () => {
    assert.throws(() => webviewPageHtml({ cspSource: 'x', nonce: 'short', scriptUri: 'a', styleUris: [] }));
    assert.throws(() => webviewPageHtml({ cspSource: 'x', nonce: `${NONCE}" onload="x`, scriptUri: 'a', styleUris: [] }));
  });
});

describe('standaloneReportHtml', () => {
  const hostile = '</script><script>alert(1)</script><!-- \u2028\u2029 & <img src=x onerror=alert(2)>';

  it('embeds the model so that no data can close the script element', () => {
    const html = standaloneReportHtml(model(hostile), { script: 'console.log("</script>")', styles: ['a{}</style><b>'], theme: THEME }, NONCE);
    const json = /<script type="application\/json" id="report-model">([^]*?)<\/script>/.exec(html)?.[1];
    assert.ok(json, 'the model element is there');
    assert.doesNotMatch(json, /[<>&\u2028\u2029]/);
    assert.equal((JSON.parse(json) as ReportModel).title, hostile);
    // Exactly the three scripts we put there, and the inlined bundle's "</script>" is escaped.
    assert.equal(html.match(/<script\b/g)?.length, 3);
    assert.equal(html.match(/<\/script>/g)?.length, 3);
    assert.equal(html.match(/<\/style>/g)?.length, 2);
    assert.match(html, /<title>V8 Lens · &lt;\/script&gt;/);
    assert.match(html, /<html lang="en" data-standalone>/);
  });

  it('has a nonce CSP without unsafe-inline and a palette for both colour schemes', () => {
    const html = standaloneReportHtml(model('t'), { script: '', styles: [], theme: THEME }, NONCE);
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, new RegExp(`style-src 'nonce-${NONCE}'`));
    assert.match(csp, new RegExp(`script-src 'nonce-${NONCE}'`));
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval/);
    assert.match(html, /@media \(prefers-color-scheme: dark\)/);
    // Every script that runs, and every style, carries the nonce; data blocks (the model, the spans) run nothing.
    for (const tag of html.match(/<(script|style)\b(?![^>]*type="application\/(json|octet-stream)")[^>]*>/g) ?? []) assert.match(tag, new RegExp(`nonce="${NONCE}"`));
  });

  it('puts the samples in time order after the script, as base64 the model points at', () => {
    const text = readFileSync(join(SPEEDSCOPE_DIR, 'chrome65-sucrase.cpuprofile'), 'utf8');
    const tp = buildTimeProfile(buildCpuModel(parseCpuProfile(text, 'sucrase.cpuprofile')));
    const html = standaloneReportHtml({ ...model('t'), timeProfile: tp }, { script: 'run()', styles: [], theme: THEME }, NONCE);
    const embedded = JSON.parse(/<script type="application\/json" id="report-model">([^]*?)<\/script>/.exec(html)![1]!) as ReportModel;
    const packed = embedded.timeProfile!.packed!;
    assert.equal(packed.spans, '', 'not in the model');
    assert.deepEqual(packed.spansIn, { id: 'report-spans-0', count: tp.spanNode.length });
    const element = /<script type="application\/octet-stream" id="report-spans-0">([A-Za-z0-9+/=]*)<\/script>/.exec(html);
    assert.ok(element, 'the spans element, base64 only');
    assert.ok(html.indexOf(element[0]) > html.indexOf('run()'), 'after the script');
    // What the page does once the document is parsed: the spans from the element, then unpacked.
    const unpacked = unpackTimeProfile({ ...embedded.timeProfile!, packed: { ...packed, spans: element[1]! } });
    assert.deepEqual(Array.from(unpacked.spanNode), Array.from(tp.spanNode));
    assert.deepEqual(Array.from(unpacked.spanDeltaUs), Array.from(tp.spanDeltaUs));
    assert.throws(() => unpackTimeProfile(embedded.timeProfile!), /samples in time order are missing \(element report-spans-0 was not read\)/);
    // Spans that could end their element (not what the packer makes) are refused, not written.
    const forged = { ...embedded.timeProfile!, packed: { encoding: packed.encoding, data: packed.data, spans: 'AAAA</script><script>alert(1)</script>' } };
    assert.throws(() => standaloneReportHtml({ ...model('t'), timeProfile: forged }, { script: '', styles: [], theme: THEME }, NONCE), /not base64/);
  });

  it('makes a fresh nonce per file by default', () => {
    const a = standaloneReportHtml(model('t'), { script: '', styles: [], theme: THEME });
    const b = standaloneReportHtml(model('t'), { script: '', styles: [], theme: THEME });
    const nonceOf = (html: string) => /script-src 'nonce-([^']+)'/.exec(html)?.[1];
    assert.ok(nonceOf(a));
    assert.notEqual(nonceOf(a), nonceOf(b));
  });

  it('jsonForScript round-trips', () => {
    const value = { a: '<>&\u2028\u2029', b: [1, 2, { c: '</script>' }] };
    assert.deepEqual(JSON.parse(jsonForScript(value)), value);
    assert.doesNotMatch(jsonForScript(value), /[<>&\u2028\u2029]/);
    // Each escape alone in ASCII text (the fast path checks each), and a line separator alone.
    for (const c of ['<', '>', '&', '\u2028', '\u2029']) assert.doesNotMatch(jsonForScript({ s: `ab${c}cd` }), /[<>&\u2028\u2029]/);
    const plain = { a: 'plain ASCII', n: [1, 2.5] };
    assert.equal(jsonForScript(plain), JSON.stringify(plain));
  });
});
