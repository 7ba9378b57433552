/**
 * Apply writes the lab's value into launch.json or package.json touching only what changes (issue
 * 21: it reformatted an unrelated one-line `skipFiles` array): every line the user wrote stays as
 * it was, but for the one line added or the one string replaced; comments, tabs, CRLF and one-line
 * arrays and objects are kept.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'jsonc-parser';
import { launchJsonWithSemiSpace, packageJsonWithSemiSpace } from '../../../src/core/sweep/applySemiSpace';

const LAUNCH = `{
  // the team's launch configurations
  "version": "0.2.0",
  "configurations": [
    {
      "type": "node",
      "request": "launch",
      "name": "API",
      "program": "\${workspaceFolder}/server.js",
      "skipFiles": ["<node_internals>/**"]
    },
    { "type": "node", "request": "launch", "name": "Worker", "env": { "A": "1" } },
    {
      "type": "node",
      "request": "launch",
      "name": "Tuned",
      "runtimeArgs": [
        "--max-semi-space-size=16", // tuned by hand
        "--inspect"
      ]
    }
  ]
}
`;

/** The lines of `after` that are not lines of `before`, and the lines of `before` that are gone, in order. */
function lineDiff(before: string, after: string): { added: string[]; removed: string[] } {
  const a = before.split('\n');
  const b = after.split('\n');
  // Longest common subsequence of lines: a real diff, small inputs.
  const lcs = a.map(() => new Array<number>(b.length + 1).fill(0));
  lcs.push(new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const added: string[] = [];
  const removed: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) [i, j] = [i + 1, j + 1];
    else if (j < b.length && (i >= a.length || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) added.push(b[j++]!);
    else removed.push(a[i++]!);
  }
  return { added, removed };
}

const argsOf = (text: string, name: string) => (parse(text) as { configurations: { name: string; runtimeArgs?: string[] }[] }).configurations.find((c) => c.name === name)!.runtimeArgs;

describe('Apply: minimal edits', () => {
  it('adds runtimeArgs as one new line: the one-line skipFiles array and every other line stay as written', () => {
    const next = launchJsonWithSemiSpace(LAUNCH, 'API', 64);
    assert.deepEqual(lineDiff(LAUNCH, next), { added: ['      "runtimeArgs": ["--max-semi-space-size=64"],'], removed: [] });
    assert.deepEqual(argsOf(next, 'API'), ['--max-semi-space-size=64']);
  });

  it('replaces an earlier value in place, its comment kept; a one-line object gets the property on its line', () => {
    const tuned = launchJsonWithSemiSpace(LAUNCH, 'Tuned', 64);
    assert.deepEqual(lineDiff(LAUNCH, tuned), { added: ['        "--max-semi-space-size=64", // tuned by hand'], removed: ['        "--max-semi-space-size=16", // tuned by hand'] });
    const worker = launchJsonWithSemiSpace(LAUNCH, 'Worker', 64);
    assert.deepEqual(lineDiff(LAUNCH, worker), {
      added: ['    { "type": "node", "request": "launch", "name": "Worker", "env": { "A": "1" }, "runtimeArgs": ["--max-semi-space-size=64"] },'],
      removed: ['    { "type": "node", "request": "launch", "name": "Worker", "env": { "A": "1" } },'],
    });
    assert.deepEqual(argsOf(worker, 'Worker'), ['--max-semi-space-size=64']);
  });

  it('a flag given with a separate value, twice, or in underscores: one flag left, the other words out', () => {
    const config = (args: string) => `{\n\t"configurations": [\n\t\t{\n\t\t\t"name": "API",\n\t\t\t"runtimeArgs": ${args}\n\t\t}\n\t]\n}\n`;
    const separate = launchJsonWithSemiSpace(config('["--max-semi-space-size", "32", "--inspect"]'), 'API', 64);
    assert.deepEqual(argsOf(separate, 'API'), ['--max-semi-space-size=64', '--inspect']);
    assert.deepEqual(lineDiff(config('["--max-semi-space-size", "32", "--inspect"]'), separate).added, ['\t\t\t"runtimeArgs": ["--max-semi-space-size=64", "--inspect"]']);
    const twice = config('[\n\t\t\t\t"--max_semi_space_size=8",\n\t\t\t\t"--inspect",\n\t\t\t\t"--max-semi-space-size=16"\n\t\t\t]');
    const once = launchJsonWithSemiSpace(twice, 'API', 64);
    assert.deepEqual(argsOf(once, 'API'), ['--inspect', '--max-semi-space-size=64']);
    assert.deepEqual(lineDiff(twice, once), { added: ['\t\t\t\t"--max-semi-space-size=64"'], removed: ['\t\t\t\t"--max_semi_space_size=8",', '\t\t\t\t"--max-semi-space-size=16"'] });
    // Without the flag, a tab-indented array of one element a line gets one new line, with tabs.
    const multi = config('[\n\t\t\t\t"--inspect"\n\t\t\t]');
    assert.deepEqual(lineDiff(multi, launchJsonWithSemiSpace(multi, 'API', 64)), { added: ['\t\t\t\t"--max-semi-space-size=64",'], removed: [] });
  });

  it('keeps CRLF line ends; package.json changes the script line only', () => {
    const crlf = LAUNCH.replace(/\n/g, '\r\n');
    const next = launchJsonWithSemiSpace(crlf, 'API', 64);
    assert.equal(next.split('\r\n').length, crlf.split('\r\n').length + 1);
    assert.doesNotMatch(next.replace(/\r\n/g, ''), /\n/, 'no bare LF');
    const pkg = '{\n  "name": "svc",\n  "scripts": { "start": "node server.js", "test": "node --test" },\n  "dependencies": {\n    "fastify": "^5.6.0"\n  }\n}\n';
    assert.deepEqual(lineDiff(pkg, packageJsonWithSemiSpace(pkg, 'start', 64)), {
      added: ['  "scripts": { "start": "node --max-semi-space-size=64 server.js", "test": "node --test" },'],
      removed: ['  "scripts": { "start": "node server.js", "test": "node --test" },'],
    });
  });
});
