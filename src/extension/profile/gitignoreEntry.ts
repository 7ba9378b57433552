/**
 * Whether a workspace's runs folder should be offered to its `.gitignore`: the workspace is in a git
 * repository, the runs land in its `.v8-lens/`, and git does not ignore that yet. Profiles and traces
 * are large and machine-specific: committed by accident, they bloat the repository for good.
 * No vscode import: the extension's offer (gitignoreOffer.ts) asks, this decides and writes.
 */
import { childProcess } from '../../core/util/lazyBuiltins';
import { existsSync } from 'node:fs';
import { appendFile, readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

/** The line V8 Lens offers: its folder in the workspace (runs, sweeps). */
export const V8_LENS_IGNORE_ENTRY = '.v8-lens/';
const V8_LENS_DIR = '.v8-lens';

/** The repository a folder is in (where `.git` is, a folder or a worktree's file), or null. */
export function gitRootOf(dir: string): string | null {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (dirname(at) === at) return null;
  }
}

/**
 * The `.v8-lens` folder of the workspace folder a run was written under, when it is in a git
 * repository and git does not ignore it; null otherwise (nothing to offer).
 */
export async function folderToIgnore(workspaceFolder: string, runDir: string): Promise<string | null> {
  const dir = join(workspaceFolder, V8_LENS_DIR);
  if (!runDir.startsWith(dir + sep)) return null;
  const root = gitRootOf(workspaceFolder);
  if (root === null) return null;
  return (await isIgnored(root, dir)) ? null : dir;
}

/**
 * Whether git ignores the path (`git check-ignore`: .gitignore files, .git/info/exclude, the global
 * excludes); without git, whether the workspace's .gitignore names `.v8-lens`.
 */
export async function isIgnored(repoRoot: string, path: string): Promise<boolean> {
  const code = await new Promise<number | null>((resolve) => {
    const child = childProcess().spawn('git', ['check-ignore', '-q', '--', relative(repoRoot, path) || '.'], { cwd: repoRoot, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.on('error', () => resolve(null));
    child.on('close', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  if (code === 0) return true;
  if (code === 1) return false;
  const text = await readFile(join(dirname(path), '.gitignore'), 'utf8').catch(() => '');
  return text.split(/\r?\n/).some((line) => /^\/?\.v8-lens(\/(\*\*?)?)?\s*$/.test(line.trim()));
}

/** Appends `.v8-lens/` to the workspace folder's .gitignore (made if missing), on a line of its own. */
export async function addToGitignore(workspaceFolder: string): Promise<string> {
  const file = join(workspaceFolder, '.gitignore');
  const before = await readFile(file, 'utf8').catch(() => '');
  const newline = before.includes('\r\n') ? '\r\n' : '\n';
  const gap = before === '' || before.endsWith('\n') ? '' : newline;
  await appendFile(file, `${gap}# V8 Lens runs and lab sweeps (profiles, traces)${newline}${V8_LENS_IGNORE_ENTRY}${newline}`);
  return file;
}
