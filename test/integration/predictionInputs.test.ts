/**
 * The prediction's inputs are V8's own account of the run, on Node 20, 22, 24 and 26: the in-flight
 * fixture (request data across awaited I/O) under a fixed-rate load at a 16 MB semi-space, once
 * with the default preset (--trace-gc) and once with --gc-phases (--trace-gc-nvp: key=value up to
 * Node 24, JSON on Node 26). V8's lines are read here with plain regular expressions, placed in the
 * measured window by the isolate's start the agent recorded: the scavenges counted, the bytes
 * allocated per 1,000 requests (the heap's growth from each GC's end to the next one's start, or the
 * sum of `allocated`), and with the phases what a scavenge kept (`new_space_survived`, median) and
 * promoted (`promoted`, mean).
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { NODES, PROGRAMS, freePort, readSummary, runCli, tempDir } from './cliHarness';

const SERVICE = join(PROGRAMS, 'young-gen', 'in-flight.js');
const LOAD = ['--rate', '300', '--connections', '10', '--warmup', '2', '--duration', '4', '--semi-space', '16'];
const MB = 1024 * 1024;

interface Line {
  atEpochMs: number;
  text: string;
}

/** The launched process's timed trace lines, on the epoch clock. */
function traceLines(run: string): { lines: Line[]; window: { start: number; end: number }; requests: number } {
  const summary = readSummary(run);
  const pid = summary.gc!.isolate!.pid;
  const record = JSON.parse(readFileSync(join(run, 'agent', readdirSync(join(run, 'agent')).find((f) => f === `${pid}.json`)!), 'utf8'));
  const lines: Line[] = [];
  for (const line of readFileSync(join(run, 'gc-trace.log'), 'utf8').split('\n')) {
    const m = /^\[(\d+):[0-9a-fA-Fx]+(?::\d+)?\]\s+(\d+) ms: (.*)$/.exec(line);
    if (m && Number(m[1]) === pid) lines.push({ atEpochMs: record.processStartMs + Number(m[2]), text: m[3]! });
  }
  return { lines, window: summary.load!.windowEpochMs!, requests: summary.load!.figures!.requests };
}

const inWindow = (l: Line, w: { start: number; end: number }) => l.atEpochMs >= w.start && l.atEpochMs <= w.end;
const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

describe('the prediction\'s inputs against V8\'s own trace (Node 20-26)', () => {
  for (const node of NODES) {
    it(`${node.label}: --trace-gc, the scavenges and the heap's growth between GCs in the window`, { timeout: 120_000 }, async () => {
      const port = await freePort();
      const run = join(tempDir(), 'run');
      const r = await runCli(['profile', '--node', node.path, '--url', `http://127.0.0.1:${port}/`, ...LOAD, '--out', run, '--', SERVICE], { env: { PORT: String(port) }, timeoutMs: 90_000 });
      assert.equal(r.code, 0, r.stderr);
      const prediction = readSummary(run).prediction;
      assert.ok(prediction, readSummary(run).predictionMissing ?? '');
      const { lines, window, requests } = traceLines(run);
      let previousAfter: number | null = null;
      let grownMB = 0;
      let scavenges = 0;
      for (const l of lines) {
        // "Scavenge 4.4 (4.5) -> 3.9 (5.5) MB", Node 22+ with "pooled: N MB, " after it.
        const m = /^(Scavenge|(?:Incremental )?Mark-Compact|Mark-sweep)(?: \([a-z ]+\))* ([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/.exec(l.text);
        if (!m) continue;
        if (inWindow(l, window)) {
          if (m[1] === 'Scavenge') scavenges++;
          if (previousAfter !== null) grownMB += Math.max(0, Number(m[2]) - previousAfter);
        }
        previousAfter = Number(m[3]);
      }
      const iso = prediction.inputs.isolates[0]!;
      assert.equal(iso.scavenges, scavenges);
      const v8 = (grownMB * MB * 1000) / requests;
      assert.ok(Math.abs(iso.allocatedBytesPerUnit - v8) <= 1, `${iso.allocatedBytesPerUnit} vs V8's ${v8}`);
      assert.equal(iso.semiSpaceBytes, 16 * MB);
    });

    it(`${node.label}: --gc-phases, allocated, kept and promoted as V8's nvp lines say`, { timeout: 120_000 }, async () => {
      const port = await freePort();
      const run = join(tempDir(), 'run');
      const r = await runCli(['profile', '--preset', 'gc', '--gc-phases', '--node', node.path, '--url', `http://127.0.0.1:${port}/`, ...LOAD, '--out', run, '--', SERVICE], { env: { PORT: String(port) }, timeoutMs: 90_000 });
      assert.equal(r.code, 0, r.stderr);
      const prediction = readSummary(run).prediction;
      assert.ok(prediction, readSummary(run).predictionMissing ?? '');
      const { lines, window, requests } = traceLines(run);
      // Both forms: "allocated=123 " (Node 20-24) and "\"allocated\":123" (Node 26's JSON).
      const value = (text: string, key: string) => {
        const m = new RegExp(`"?\\b${key}"?[=:]"?([\\w.]+)`).exec(text);
        return m ? m[1]! : null;
      };
      const gcs = lines.filter((l) => inWindow(l, window) && value(l.text, 'gc') !== null);
      const scavenges = gcs.filter((l) => value(l.text, 'gc') === 's');
      const iso = prediction.inputs.isolates[0]!;
      assert.equal(iso.scavenges, scavenges.length);
      const allocated = gcs.reduce((n, l) => n + Number(value(l.text, 'allocated')), 0);
      assert.equal(iso.allocatedBytesPerUnit, Math.round((allocated / requests) * 1000));
      assert.equal(iso.keptSource, 'nvp');
      assert.equal(iso.keptBytesPerScavenge, Math.round(median(scavenges.map((l) => Number(value(l.text, 'new_space_survived'))))));
      assert.equal(iso.promotedSource, 'nvp');
      const promoted = scavenges.reduce((n, l) => n + Number(value(l.text, 'promoted')), 0) / scavenges.length;
      assert.equal(iso.promotedBytesPerScavenge, Math.round(promoted));
    });
  }
});
