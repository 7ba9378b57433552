/**
 * Attach against inspectors that misbehave, and attach told to stop (issue 22): a /json/list that
 * drips one byte every 500 ms ends at its 3 s deadline, a WebSocket that sends garbage ends at once
 * saying so (not "the target closed the connection"), and SIGTERM ends attach within 3 s, whether
 * it is profiling a real Node or waiting on a dripping inspector. Each through the real CLI.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PROGRAMS, collect, startCli, tempDir, waitForOutput } from './cliHarness';

const servers: Server[] = [];
const children: ChildProcess[] = [];
after(() => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
  for (const c of children) c.kill('SIGKILL');
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

/** An HTTP server whose /json/list answer comes one byte every 500 ms, forever. */
async function drippingInspector(): Promise<number> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const timer = setInterval(() => res.write(' '), 500);
    req.socket.on('close', () => clearInterval(timer));
  });
  return listen(server);
}

/** A server that accepts the WebSocket upgrade, then answers the first frame with `garbage`. */
async function garbageWebSocket(garbage: Buffer): Promise<number> {
  const server = createServer();
  server.on('upgrade', (req, socket: Socket) => {
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
    socket.once('data', () => socket.write(garbage));
    socket.on('error', () => {});
  });
  return listen(server);
}

/** A text frame (server to client: unmasked) holding `text`. */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8');
  return Buffer.concat([Buffer.from([0x81, payload.length]), payload]);
}

function assertOneLine(stderr: string): void {
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line: ${stderr}`);
  assert.ok(!/\n\s+at /.test(stderr) && !/internal error/.test(stderr), stderr);
}

describe('attach: every network wait has a total deadline', () => {
  it('a /json/list that drips a byte every 500 ms ends at the 3 s deadline (exit 2), saying it dripped', { timeout: 30_000 }, async () => {
    const port = await drippingInspector();
    const started = Date.now();
    const r = await collect(startCli(['attach', `127.0.0.1:${port}`, '--out', join(tempDir(), 'run')]), 20_000);
    const ms = Date.now() - started;
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`^v8-lens: 127\\.0\\.0\\.1:${port} sent only \\d+ bytes of its /json/list answer within 3 s \\(a deadline for the whole answer\\): is it a Node inspector`));
    assertOneLine(r.stderr);
    assert.ok(ms < 3000 + 2500, `ended after ${ms} ms`);
  });

  const garbage: [string, Buffer, RegExp][] = [
    ['bytes that are not WebSocket frames', Buffer.from([0xff, 0x7f, 0x00, 0x13, 0x37, 0xde, 0xad, 0xbe, 0xef]), /is not a Node inspector: it sent data that is not a WebSocket stream \(Invalid WebSocket frame/],
    ['a text frame that is not the DevTools protocol', textFrame('hello, this is not JSON'), /is not a Node inspector: it sent a message that is not the DevTools protocol \(23 bytes: "hello, this is not JSON"\)/],
  ];
  for (const [what, bytes, reason] of garbage) {
    it(`a WebSocket that sends ${what} ends at once (exit 1), saying so, not "closed the connection"`, { timeout: 30_000 }, async () => {
      const port = await garbageWebSocket(bytes);
      const out = join(tempDir(), 'run');
      const started = Date.now();
      const r = await collect(startCli(['attach', `ws://127.0.0.1:${port}/0f2c5d7e-target`, '--out', out]), 20_000);
      const ms = Date.now() - started;
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, reason);
      assert.doesNotMatch(r.stderr, /closed the connection/);
      assertOneLine(r.stderr);
      assert.ok(ms < 5000, `ended after ${ms} ms`);
    });
  }
});

describe('attach: SIGTERM ends it within 3 s', () => {
  it('while profiling a real Node for 30 s: it stops, keeps the profile, and exits', { timeout: 60_000 }, async () => {
    const target = spawn(process.execPath, ['--inspect=127.0.0.1:0', join(PROGRAMS, 'attach-server.js')], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(target);
    const [, url] = await waitForOutput(target, /Debugger listening on (ws:\/\/\S+)/);
    await waitForOutput(target, /listening on \d+/);
    const out = join(tempDir(), 'run');
    const cli = startCli(['attach', new URL(url!).host, '--duration', '30', '--out', out]);
    const done = collect(cli, 40_000);
    await waitForOutput(cli, /attached to pid \d+/);
    await new Promise((r) => setTimeout(r, 500));
    const signalled = Date.now();
    cli.kill('SIGTERM');
    const r = await done;
    const ms = Date.now() - signalled;
    assert.ok(ms < 3000, `ended ${ms} ms after SIGTERM`);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /stopping: saving the profile and detaching/);
    assert.equal(readdirSync(join(out, 'cpu')).filter((f) => f.endsWith('.cpuprofile')).length, 1, 'the profile so far is kept');
    assert.equal(JSON.parse(readFileSync(join(out, 'session.json'), 'utf8')).status, 'finished');
  });

  it('while a /json/list drips: it gives up at once (exit 130), nothing written', { timeout: 30_000 }, async () => {
    const port = await drippingInspector();
    const out = join(tempDir(), 'run');
    const cli = startCli(['attach', `127.0.0.1:${port}`, '--out', out]);
    const done = collect(cli, 20_000);
    await new Promise((r) => setTimeout(r, 1200));
    const signalled = Date.now();
    cli.kill('SIGTERM');
    const r = await done;
    const ms = Date.now() - signalled;
    assert.ok(ms < 3000, `ended ${ms} ms after SIGTERM`);
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /cancelled before the inspector was found; nothing was collected/);
  });
});
