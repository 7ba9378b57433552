/**
 * A project deep in the file system (a CI checkout, a monorepo): resolving its long paths at start-up
 * made Node 24's Maglev mark Node's path helpers hot before any preload ran, and with `--trace-opt`
 * on the command line each process then traced into the one shared start-up file instead of its own
 * (seen on CI: a forked child's and three cluster workers' deopts all "from start-up"). The preload
 * now switches tracing on itself: every process gets its own trace, and the deopts their process.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { AgentRecord } from '../../src/core/preload/agentRecord';
import { NODES, PROGRAMS, readSummary, runCli, tempDir } from './cliHarness';

describe('a project with a long path: every process still writes its own code trace', () => {
  for (const node of NODES) {
    it(node.label, { timeout: 60_000 }, async () => {
      const project = join(tempDir(), 'checkouts', 'some-team', 'a-service-with-a-long-name'.repeat(3), 'packages', 'api', 'src');
      mkdirSync(project, { recursive: true });
      for (const f of ['fork-parent.js', 'fork-child.js']) copyFileSync(join(PROGRAMS, f), join(project, f));
      const out = join(project, '..', '.v8-lens', 'run');
      const r = await runCli(['profile', '--node', node.path, '--stable-deopts', '--out', out, '--', 'fork-parent.js'], { cwd: project });
      assert.equal(r.code, 0, r.stderr);
      const records = readdirSync(join(out, 'agent')).map((f) => JSON.parse(readFileSync(join(out, 'agent', f), 'utf8')) as AgentRecord);
      assert.equal(records.length, 2);
      for (const rec of records) assert.deepEqual(rec.codeTrace, { file: `code-${rec.pid}-0.asm`, own: true }, `pid ${rec.pid}`);
      const summary = readSummary(out);
      const roleOf = (id: string) => summary.processes!.find((p) => p.id === id)?.role;
      const add = summary.deopts.find((d) => d.function === 'add' && d.reason === 'not a Smi');
      const lengthOf = summary.deopts.find((d) => d.function === 'lengthOf' && d.reason === 'wrong map');
      assert.deepEqual(add?.processes?.map(roleOf), ['main'], JSON.stringify(summary.deopts));
      assert.deepEqual(lengthOf?.processes?.map(roleOf), ['child'], JSON.stringify(summary.deopts));
    });
  }
});
