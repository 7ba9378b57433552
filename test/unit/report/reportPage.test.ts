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
    for (const tag of html.match(/<(script|style)\b(?![^>]*type="application\/json")[^>]*>/g) ?? []) assert.match(tag, new RegExp(`nonce="${NONCE}"`));
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
