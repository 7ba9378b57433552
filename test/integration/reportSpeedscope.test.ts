/**
 * `v8-lens report <file.cpuprofile> --json` against an outside oracle: speedscope's own expected
 * weights for its sample profiles, to the microsecond. The one allowed difference is the final
 * sample, which speedscope gives no weight and we weight up to the profile's end.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SPEEDSCOPE, runCli } from './cliHarness';

interface ExpectedFrame { name: string; line: number; col: number; selfWeightUs: number; totalWeightUs: number }
const expected = JSON.parse(readFileSync(join(SPEEDSCOPE, 'expected-weights.json'), 'utf8')) as Record<string, { frames: ExpectedFrame[] }>;

interface RawNode { id: number; callFrame?: { functionName: string; lineNumber: number }; functionName?: string; lineNumber?: number; children?: (number | RawNode)[] }

/** The last sample's stack (function names, leaf first) and its weight, computed from the raw file. */
function lastSample(file: string): { stack: string[]; weightUs: number } {
  const raw = JSON.parse(readFileSync(join(SPEEDSCOPE, file), 'utf8'));
  const parents = new Map<number, RawNode | undefined>();
  const byId = new Map<number, RawNode>();
  const visit = (node: RawNode, parent: RawNode | undefined) => {
    byId.set(node.id, node);
    parents.set(node.id, parent);
    for (const c of node.children ?? []) if (typeof c === 'object') visit(c, node);
  };
  if (raw.head) visit(raw.head, undefined);
  else {
    for (const n of raw.nodes as RawNode[]) byId.set(n.id, n);
    for (const n of raw.nodes as RawNode[]) for (const c of n.children ?? []) parents.set(c as number, n);
  }
  const samples: number[] = raw.samples;
  let weightUs: number;
  if (raw.timestamps) {
    const t: number[] = raw.timestamps;
    weightUs = t.length > samples.length ? t[samples.length]! - t[samples.length - 1]! : 0;
  } else {
    const last = raw.startTime + (raw.timeDeltas as number[]).slice(0, samples.length).reduce((a, b) => a + b, 0);
    weightUs = Math.max(0, raw.endTime - last);
  }
  const stack: string[] = [];
  for (let n: RawNode | undefined = byId.get(samples.at(-1)!); n; n = parents.get(n.id)) {
    const name = n.callFrame?.functionName ?? n.functionName ?? '';
    if (name !== '(root)') stack.push(name === '' ? '(anonymous)' : name);
  }
  return { stack, weightUs };
}

for (const file of ['chrome65-simple.cpuprofile', 'node10-example.cpuprofile']) {
  describe(`report ${file} --json`, () => {
    it("matches speedscope's expected self/total weights to the microsecond", async () => {
      const r = await runCli(['report', join(SPEEDSCOPE, file), '--json']);
      assert.equal(r.code, 0, r.stderr);
      const summary = JSON.parse(r.stdout);
      const { stack, weightUs } = lastSample(file);
      for (const frame of expected[file]!.frames) {
        const ours = summary.cpu.functions.find((f: { name: string; line: number; column: number }) => f.name === frame.name && f.line === frame.line && f.column === frame.col);
        assert.ok(ours, `no function ${frame.name} at ${frame.line}:${frame.col}`);
        const selfUs = Math.round(ours.selfMs * 1000);
        const totalUs = Math.round(ours.totalMs * 1000);
        const onLastStack = stack.includes(frame.name);
        const isLeaf = stack[0] === frame.name;
        assert.equal(totalUs, frame.totalWeightUs + (onLastStack ? weightUs : 0), `${frame.name} total`);
        assert.equal(selfUs, frame.selfWeightUs + (isLeaf ? weightUs : 0), `${frame.name} self`);
      }
    });
  });
}
