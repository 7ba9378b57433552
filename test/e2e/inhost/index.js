// extensionTestsPath module for the in-host tests (the @vscode/test-electron contract): run() runs
// mocha inside the real extension host, where `require('vscode')` is the API. The tests are the
// *.test.js files next to this one. Results go to $V8LENS_E2E_STATE_DIR/inhost-results.json for the
// driver (which folds them into its final "N passed, N failed" line); run() rejects on any failure,
// so the workbench's exit code (window.codeAutomationExit) is 1.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

function run() {
  const stateDir = process.env.V8LENS_E2E_STATE_DIR;
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec' });
  const grep = process.env.V8LENS_E2E_GREP;
  if (grep) mocha.grep(grep);
  // The harness self-test (run.mjs --self-test) points this at its own folder.
  const dir = process.env.V8LENS_E2E_INHOST_DIR || __dirname;
  for (const f of fs.readdirSync(dir).sort()) {
    if (f.endsWith('.test.js')) mocha.addFile(path.join(dir, f));
  }
  const results = { passed: 0, failed: 0, tests: [] };
  const write = () => {
    if (stateDir) fs.writeFileSync(path.join(stateDir, 'inhost-results.json'), JSON.stringify(results, null, 2));
  };
  return new Promise((resolve, reject) => {
    let runner;
    try {
      runner = mocha.run((failures) => {
        write();
        if (failures > 0) reject(new Error(`${failures} in-host test(s) failed`));
        else resolve();
      });
    } catch (e) {
      results.failed++;
      results.tests.push({ title: 'load in-host tests', state: 'failed', error: e && e.stack ? e.stack : String(e) });
      write();
      return reject(e);
    }
    runner.on('pass', (t) => {
      results.passed++;
      results.tests.push({ title: t.fullTitle(), state: 'passed', ms: t.duration });
    });
    runner.on('fail', (t, err) => {
      results.failed++;
      results.tests.push({ title: t.fullTitle(), state: 'failed', error: err && err.stack ? err.stack : String(err) });
    });
  });
}

module.exports = { run };
