// extensionTestsPath module for the UI scenarios (the GitLens "vscode evaluator" pattern).
// run() never resolves on its own: it serves, on 127.0.0.1 and a random port, an HTTP endpoint that
// evaluates functions sent by the Playwright driver against the real `vscode` API in this extension
// host, so UI scenarios can check host state and set things up (open a file, pass a Uri to a
// command) that the web workbench has no practical UI for (e.g. native file dialogs).
// The port is written to $V8LENS_E2E_STATE_DIR/evaluator.json; requests need $V8LENS_E2E_TOKEN.
'use strict';
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');

function run() {
  const stateDir = process.env.V8LENS_E2E_STATE_DIR;
  const token = process.env.V8LENS_E2E_TOKEN;
  if (!stateDir || !token) return Promise.reject(new Error('evaluator: V8LENS_E2E_STATE_DIR/V8LENS_E2E_TOKEN not set'));
  return new Promise((resolve, reject) => {
    const server = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c) => { body += c; });
      req.on('end', async () => {
        const reply = (status, obj) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(obj));
        };
        if (req.headers['x-token'] !== token) return reply(403, { error: 'bad token' });
        let msg;
        try { msg = JSON.parse(body || '{}'); } catch (e) { return reply(400, { error: String(e) }); }
        if (req.url === '/exit') {
          reply(200, { ok: true });
          server.close();
          return msg.code ? reject(new Error(`driver asked to exit with ${msg.code}`)) : resolve();
        }
        if (req.url !== '/eval') return reply(404, { error: 'unknown endpoint' });
        try {
          // Revive Uri arguments: { $uri: 'file:///…' }.
          const args = (msg.args || []).map((a) => (a && typeof a === 'object' && a.$uri ? vscode.Uri.parse(a.$uri) : a));
          const fn = (0, eval)(`(${msg.fn})`);
          const value = await fn(vscode, ...args);
          reply(200, { value: value === undefined ? null : JSON.parse(JSON.stringify(value, (_k, v) => (v instanceof vscode.Uri ? v.toString() : v)) ?? 'null') });
        } catch (e) {
          reply(200, { error: e && e.stack ? e.stack : String(e) });
        }
      });
    });
    server.listen(0, '127.0.0.1', () => {
      const file = path.join(stateDir, 'evaluator.json');
      fs.writeFileSync(file + '.tmp', JSON.stringify({ port: server.address().port, pid: process.pid }));
      fs.renameSync(file + '.tmp', file);
    });
    server.on('error', reject);
  });
}

module.exports = { run };
