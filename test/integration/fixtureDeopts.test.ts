/**
 * Apps nobody here wrote, the way a user brings them (an express API installed from its lockfile, a
 * plain http server, a cluster, a forked child, a worker thread), profiled by the real CLI on every
 * Node in NODES. Their deopts must be the ones V8 itself reported for them: each fixture's expected.json
 * was recorded from V8's own per-isolate traces (test/fixtures/apps/ORACLE.md), independently of
 * V8 Lens's reader. Every deliberate deopt is found at its 1-based position with V8's reason, in the
 * right process, and no row is left without its function.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import type { DeoptSummaryEntry, ProcessSummary, Summary } from '../../src/shared/model/summary';
import { NODES, PROGRAMS, REPO, readSummary, runCli, tempDir } from './cliHarness';
import { assertReadWhole } from './v8Account';

interface ExpectedDeopt {
  role: 'primary' | 'child' | 'worker thread';
  /** The function whose optimized code was thrown away ("" = anonymous). */
  function: string;
  /** The function at the deopt's position (differs when inlined). */
  inFunction: string;
  file: string;
  line: number;
  column: number;
  reason: string;
  kind: string;
  nodes: number[];
  byNode: Record<string, { inlinedAt: { file: string; line: number; column: number }[]; processes: number; perProcess: { min: number; max: number } }>;
}

interface Fixture {
  name: string;
  entry: string;
  /** A server: profiled under load at the URL it prints. */
  server: boolean;
  deopts: ExpectedDeopt[];
}

const APPS = join(REPO, 'test', 'fixtures', 'apps');
const fixtures: Fixture[] = [
  fixture(join(APPS, 'express-api', 'expected.json'), true),
  fixture(join(APPS, 'http-late-deopt', 'expected.json'), true),
  fixture(join(APPS, 'cluster-3', 'expected.json'), true),
  fixture(join(PROGRAMS, 'fork-parent.expected.json'), false),
  fixture(join(PROGRAMS, 'worker-main.expected.json'), false),
];

function fixture(expectedFile: string, server: boolean): Fixture {
  const e = JSON.parse(readFileSync(expectedFile, 'utf8')) as { fixture: string; entry: string; deopts: ExpectedDeopt[] };
  return { name: e.fixture, entry: join(dirname(expectedFile), e.entry), server, deopts: e.deopts };
}

const endsWith = (url: string, file: string) => url.replace(/\\/g, '/').endsWith(`/${file}`);

/**
 * V8's own account of one deopt in this run: the `[bailout …]` records of every code trace in the run
 * folder with its kind, reason and optimized function whose first `;;; deoptimize at <file:line:col>`
 * is its position, counted, and the isolates whose traces hold them (`"<pid>"` for a main thread,
 * `"<pid>/<threadId>"` for a worker thread, as the summary names them; null when a trace is shared by
 * a process's threads, as on Node 24, so the file cannot tell which isolate it was).
 * Read straight from the raw traces, independently of V8 Lens's reader.
 */
function v8Bailouts(runDir: string, e: ExpectedDeopt): { count: number; isolates: string[] | null; evidence: string[] } {
  let count = 0;
  // Every bailout of this kind and reason with the position it names, for the failure message: a
  // count that differs says which record one reader took and the other did not.
  const evidence: string[] = [];
  const isolates = new Set<string>();
  let shared = false;
  const v8Dir = join(runDir, 'v8');
  for (const file of readdirSync(v8Dir).filter((f) => f.endsWith('.asm'))) {
    let pending = false;
    let begun = -1;
    let inFile = 0;
    const lines = readFileSync(join(v8Dir, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (line.startsWith('[bailout (kind: ')) {
        const same = line.startsWith(`[bailout (kind: ${e.kind}, reason: ${e.reason}): begin.`);
        pending = same && line.includes(`<JSFunction ${e.function === '' ? '' : `${e.function} `}(sfi = `);
        begun = same ? i : -1;
      }
      if (begun >= 0 && line.includes(';;; deoptimize at')) {
        evidence.push(`${file}:${begun + 1}: ${lines[begun]!.slice(0, 140)} … ${line.trim()}`);
        begun = -1;
      }
      const at = pending ? /;;; deoptimize at <([^>]*):(\d+):(\d+)>/.exec(line) : null;
      if (at) {
        if (endsWith(at[1]!, e.file) && Number(at[2]) === e.line && Number(at[3]) === e.column) inFile++;
        pending = false;
      }
    });
    if (inFile === 0) continue;
    count += inFile;
    const own = /^code-(\d+)-(\d+)\.asm$/.exec(file);
    if (own) isolates.add(own[2] === '0' ? own[1]! : `${own[1]}/${own[2]}`);
    else shared = true;
  }
  return { count, isolates: shared ? null : [...isolates].sort(), evidence };
}

/** The process roles V8 Lens gives the oracle's roles ("primary": the launched process). */
function roleMatches(expected: ExpectedDeopt['role'], p: ProcessSummary): boolean {
  if (expected === 'primary') return p.role === 'main' || p.role === 'primary';
  if (expected === 'child') return p.role === 'child' || p.role === 'worker';
  return p.role === 'worker thread';
}

function findDeopt(summary: Summary, e: ExpectedDeopt, major: number): DeoptSummaryEntry | undefined {
  const inlinedAt = e.byNode[String(major)]!.inlinedAt;
  return summary.deopts.find(
    (d) =>
      endsWith(d.url, e.file) &&
      d.line === e.line &&
      d.column === e.column &&
      d.reason === e.reason &&
      d.kind === e.kind &&
      d.inlinedAt.length === inlinedAt.length &&
      d.inlinedAt.every((p, i) => endsWith(p.url, inlinedAt[i]!.file) && p.line === inlinedAt[i]!.line && p.column === inlinedAt[i]!.column),
  );
}

for (const f of fixtures) {
  describe(`${f.name}: V8's own deopts, found by V8 Lens`, () => {
    for (const node of NODES) {
      it(node.label, { timeout: 120_000 }, async () => {
        const out = join(tempDir(), 'run');
        const load = f.server ? ['--url', 'auto', '--warmup', '1', '--duration', '2', '--connections', '10'] : [];
        const r = await runCli(['profile', '--node', node.path, '--stable-deopts', '--out', out, ...load, '--', f.entry], { cwd: dirname(f.entry), timeoutMs: 110_000 });
        assert.equal(r.code, 0, r.stderr);
        const summary = readSummary(out);
        const seen = JSON.stringify(summary.deopts.map((d) => [d.function, d.optimizedFunction, `${d.url}:${d.line}:${d.column}`, d.reason, d.count, d.processes]), null, 1);
        assert.equal(summary.deoptCoverage, 'collected', summary.warnings.join('\n'));
        // The oracle's deopts for this Node: a version it has none for fails here rather than passing
        // on nothing (record it: ORACLE.md, "Re-record").
        const required = f.deopts.filter((x) => x.nodes.includes(node.major));
        assert.ok(required.length > 0, `${f.name}: the oracle has no deopts for Node ${node.major}`);
        // The run's traces hold at least those (each in at least one process: a cluster worker that got
        // too few requests may not reach its deopt, see below), and V8 Lens read every bailout in them.
        assertReadWhole(summary, 'deopts', required.reduce((n, e) => n + e.byNode[String(node.major)]!.perProcess.min, 0));
        for (const e of required) {
          const d = findDeopt(summary, e, node.major);
          assert.ok(d, `${e.reason} at ${e.file}:${e.line}:${e.column} (${e.inFunction}) on ${node.label}; V8 Lens found: ${seen}`);
          assert.equal(d.function, e.inFunction);
          assert.equal(d.optimizedFunction, e.function === '' ? '(anonymous)' : e.function);
          const expected = e.byNode[String(node.major)]!;
          const where = summary.processes!.filter((p) => d.processes!.includes(p.id));
          assert.ok(where.every((p) => roleMatches(e.role, p)), `in the ${e.role}: ${where.map((p) => p.role)}`);
          // Exactly V8's own account of this run: the same count, in the same isolates. Which
          // processes deopt is the workload's doing, not V8 Lens's: a cluster worker that got too few
          // requests on a busy machine never reaches the shape change, and then V8's trace has no
          // bailout in it either. So the oracle's process count is an upper bound, and at least one
          // process must show it.
          const v8 = v8Bailouts(out, e);
          assert.equal(d.count, v8.count, `count ${d.count}, V8's own trace of this run has ${v8.count}; its ${e.kind} "${e.reason}" bailouts:\n${v8.evidence.join('\n')}\nV8 Lens found: ${seen}`);
          if (v8.isolates) assert.deepEqual([...d.processes!].sort(), v8.isolates, `V8's own traces of this run hold it in ${JSON.stringify(v8.isolates)}`);
          else assert.equal(where.length, expected.processes, `in ${expected.processes} process(es): ${JSON.stringify(d.processes)}`);
          assert.ok(where.length >= 1 && where.length <= expected.processes, `in ${where.length} process(es), the oracle's runs saw ${expected.processes}`);
          assert.ok(d.count >= where.length && d.count <= where.length * expected.perProcess.max, `count ${d.count} in ${where.length} process(es)`);
        }
        for (const d of summary.deopts) assert.ok(!/^\((unknown|code not logged)\)$/.test(d.function), `a deopt row without its function: ${JSON.stringify(d)}`);
      });
    }
  });
}
