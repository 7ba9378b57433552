import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import type { Summary } from '../../src/shared/model/summary';
import type { SessionRecord } from '../../src/shared/model/session';
import { checkSummary } from '../../src/shared/model/summaryCheck';
import { checkSession } from '../../src/shared/model/sessionCheck';

export const REPO = resolve(__dirname, '..', '..');
export const CLI = join(REPO, 'dist', 'cli.js');
export const PROGRAMS = join(REPO, 'test', 'fixtures', 'programs');
export const SPEEDSCOPE = join(REPO, 'test', 'fixtures', 'third-party', 'speedscope');

/** The Node versions the real-Node tests run under: the machine's, and 22/24/26 from test/node-versions. */
export const NODES: { label: string; path: string; major: number }[] = [
  // The tests run under the same Node that is first on PATH.
  { label: `Node ${process.version} (PATH)`, path: 'node', major: Number(process.versions.node.split('.')[0]) },
  { label: 'Node 22', path: join(REPO, 'test', 'node-versions', 'node_modules', 'node22', 'bin', 'node'), major: 22 },
  { label: 'Node 24', path: join(REPO, 'test', 'node-versions', 'node_modules', 'node24', 'bin', 'node'), major: 24 },
  { label: 'Node 26', path: join(REPO, 'test', 'node-versions', 'node_modules', 'node26', 'bin', 'node'), major: 26 },
];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Folders for a test's runs, removed when the test file's process ends (see scripts/tempDirs.ts). */
export { tempDir } from '../../scripts/tempDirs';

/** Runs `node dist/cli.js …` and collects its output; fails the test rather than hanging. */
export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<CliResult> {
  const child = startCli(args, options);
  return collect(child, options.timeoutMs ?? 60_000);
}

export function startCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): ChildProcess {
  return spawn(process.execPath, [CLI, ...args], { cwd: options.cwd ?? REPO, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

export function collect(child: ChildProcess, timeoutMs: number): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`v8-lens did not finish within ${timeoutMs} ms; stderr so far: ${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** Resolves once the child's combined output matches, with the match. */
export function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs = 30_000): Promise<RegExpExecArray> {
  return new Promise((resolvePromise, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no output matching ${pattern} within ${timeoutMs} ms; got: ${seen}`)), timeoutMs);
    const onData = (d: Buffer) => {
      seen += d.toString('utf8');
      const m = pattern.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolvePromise(m);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
  });
}

/**
 * summary.json of a real run; it must fit the shape check that reading a run folder applies (else
 * `v8-lens report` would throw it away and rebuild it), so every real run in the tests holds the
 * checks to what V8 Lens writes.
 */
export function readSummary(runDir: string): Summary {
  const value = JSON.parse(readFileSync(join(runDir, 'summary.json'), 'utf8')) as Summary;
  const problem = checkSummary(value, '');
  if (problem !== null) throw new Error(`${runDir}/summary.json does not fit the summary check: ${problem}`);
  return value;
}

/** session.json of a real run, held to its shape check like readSummary. */
export function readSession(runDir: string): SessionRecord {
  const value = JSON.parse(readFileSync(join(runDir, 'session.json'), 'utf8')) as SessionRecord;
  const problem = checkSession(value, '');
  if (problem !== null) throw new Error(`${runDir}/session.json does not fit the session check: ${problem}`);
  return value;
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until none of the pids is alive (zombies of ours are reaped by the OS once the CLI exits). */
export async function waitUntilGone(pids: number[], timeoutMs = 5000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = pids.filter(processAlive);
    if (alive.length === 0 || Date.now() > deadline) return alive;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Like waitUntilGone, for processes that are not our children: an orphan's zombie lingers until
 * whatever adopted it reaps it (in a container, maybe never), and a zombie has ended.
 */
export async function waitUntilEnded(pids: number[], timeoutMs = 5000): Promise<number[]> {
  const running = (pid: number) => processAlive(pid) && !/^\d+ \(.*\) Z/.test(readFileSafe(`/proc/${pid}/stat`));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive = pids.filter(running);
    if (alive.length === 0 || Date.now() > deadline) return alive;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** A loopback port nothing listens on right now (for a target that takes PORT). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
