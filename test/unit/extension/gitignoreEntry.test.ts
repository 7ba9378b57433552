/**
 * The offer to add `.v8-lens/` to .gitignore (issue 21): when it applies (a run written into the
 * .v8-lens folder of a git workspace that does not ignore it, as git itself says) and what it
 * writes, in real repositories made with git here.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { addToGitignore, folderToIgnore, gitRootOf, isIgnored } from '../../../src/extension/profile/gitignoreEntry';
import { tempDir } from '../../../scripts/tempDirs';

function workspace(git: boolean): { root: string; runDir: string } {
  const root = tempDir('v8-lens-gitignore-');
  if (git) execFileSync('git', ['init', '-q', root]);
  const runDir = join(root, '.v8-lens', 'runs', '20250101-120000-server');
  mkdirSync(runDir, { recursive: true });
  writeFileSync(join(runDir, 'session.json'), '{}');
  return { root, runDir };
}

const gitIgnores = (root: string, path: string) => {
  try {
    execFileSync('git', ['check-ignore', '-q', path], { cwd: root });
    return true;
  } catch {
    return false;
  }
};

describe('offering .v8-lens/ to .gitignore', () => {
  it('a git workspace whose first run was just written: offered; once added, git ignores it and it is not offered again', async () => {
    const { root, runDir } = workspace(true);
    assert.equal(gitRootOf(join(root, 'src')), root);
    assert.equal(await folderToIgnore(root, runDir), join(root, '.v8-lens'));
    writeFileSync(join(root, '.gitignore'), 'node_modules/'); // no newline at the end
    assert.equal(await addToGitignore(root), join(root, '.gitignore'));
    assert.equal(readFileSync(join(root, '.gitignore'), 'utf8'), 'node_modules/\n# V8 Lens runs and lab sweeps (profiles, traces)\n.v8-lens/\n');
    assert.equal(gitIgnores(root, '.v8-lens/runs/20250101-120000-server/session.json'), true, 'git itself ignores the runs now');
    assert.equal(await folderToIgnore(root, runDir), null);
  });

  it('not offered outside git, for runs elsewhere, or when git already ignores it (a parent .gitignore, info/exclude)', async () => {
    const plain = workspace(false);
    assert.equal(gitRootOf(plain.root), null);
    assert.equal(await folderToIgnore(plain.root, plain.runDir), null);

    const { root, runDir } = workspace(true);
    assert.equal(await folderToIgnore(root, join(root, 'profiles', 'run')), null, 'a runs folder set elsewhere: not ours to name');
    writeFileSync(join(root, '.git', 'info', 'exclude'), '.v8-lens\n');
    assert.equal(await folderToIgnore(root, runDir), null);

    // A workspace folder inside a repository: the repository's own .gitignore counts.
    const repo = workspace(true).root;
    writeFileSync(join(repo, '.gitignore'), '**/.v8-lens/\r\n');
    const sub = join(repo, 'packages', 'api');
    const subRun = join(sub, '.v8-lens', 'runs', 'r');
    mkdirSync(subRun, { recursive: true });
    assert.equal(gitRootOf(sub), repo);
    assert.equal(await folderToIgnore(sub, subRun), null);
  });

  it('keeps a .gitignore\'s CRLF lines; without git on PATH, reads the .gitignore itself', async () => {
    const { root } = workspace(true);
    writeFileSync(join(root, '.gitignore'), 'dist/\r\n');
    await addToGitignore(root);
    assert.equal(readFileSync(join(root, '.gitignore'), 'utf8'), 'dist/\r\n# V8 Lens runs and lab sweeps (profiles, traces)\r\n.v8-lens/\r\n');
    const path = process.env.PATH;
    process.env.PATH = '';
    try {
      assert.equal(await isIgnored(root, join(root, '.v8-lens')), true, 'the line V8 Lens added');
      writeFileSync(join(root, '.gitignore'), 'dist/\n');
      assert.equal(await isIgnored(root, join(root, '.v8-lens')), false);
    } finally {
      process.env.PATH = path;
    }
  });
});
