/**
 * Reading a run folder, which is data: it may come from a ticket or a cloned repository, and nothing
 * in it may make V8 Lens read outside it. Every file read from a run folder goes through here: its
 * path must lie inside the folder, lexically and once links are followed (a `cpu/` that is a link
 * to `/etc`, a profile linked to `/dev/zero`), and it must be a regular file of a sane size for
 * its kind (see util/files.ts: no FIFO can hang a read). A file that fails becomes one line of
 * reason (a RunFileError) for the warnings; the rest of the folder is still read.
 */
import type { FileHandle } from 'node:fs/promises';
import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { parseCheckedJson, type Check } from '../../shared/model/shapeCheck';
import { CPU_PROFILE_READ_LIMIT } from '../cpu/parseCpuProfile';
import { FileRefusedError, openRegularFile, readRegularFile, readRegularFileBytes, type ReadLimit } from '../util/files';
import { errorMessage, isErrno, oneLine } from '../util/errors';
import { jsonBudgetProblem, type JsonLimits } from '../util/jsonBudget';

const MB = 1024 * 1024;

/** A JSON file of the run folder: its size, and what parsing it may build (checked before JSON.parse, see jsonBudget.ts). */
export interface RunJsonLimit extends ReadLimit {
  json: JsonLimits;
}

/** Our JSON files nest 6 levels at most; more is not ours (shapeCheck's MAX_JSON_DEPTH). */
const RUN_JSON_DEPTH = 64;

/** The largest file of each kind read in one piece (logs and traces are streamed: no limit). */
export const RUN_FILE_LIMITS = {
  /**
   * A summary lists every sampled function and line: tens of MB for a big service, about a
   * million objects; twice that is refused before it is parsed.
   */
  summary: { maxBytes: 256 * MB, json: { containers: 2_000_000, values: 20_000_000, depth: RUN_JSON_DEPTH } },
  session: { maxBytes: 16 * MB, json: { containers: 200_000, values: 2_000_000, depth: RUN_JSON_DEPTH } },
  load: { maxBytes: 16 * MB, json: { containers: 200_000, values: 2_000_000, depth: RUN_JSON_DEPTH } },
  /** One process's record: about a KB. */
  agentRecord: { maxBytes: 1 * MB, json: { containers: 50_000, values: 500_000, depth: RUN_JSON_DEPTH } },
  /** threads.json: about 100 bytes per thread, at most 5,000 threads. */
  threads: { maxBytes: 4 * MB, json: { containers: 20_000, values: 100_000, depth: RUN_JSON_DEPTH } },
  cpuProfile: CPU_PROFILE_READ_LIMIT,
  /** A sampling heap profile is a call tree of allocating stacks: far smaller than a CPU profile. */
  heapProfile: CPU_PROFILE_READ_LIMIT,
  /** An attach's GC events, ~150 bytes each: 256 MB is over a million events (an hour under heavy GC is ~100k). */
  gcEvents: { maxBytes: 256 * MB },
  sweep: { maxBytes: 64 * MB, json: { containers: 1_000_000, values: 10_000_000, depth: RUN_JSON_DEPTH } },
} satisfies Record<string, ReadLimit | RunJsonLimit>;

/** Why a file of a run folder was not read: one line, naming the file by its place in the folder. */
export class RunFileError extends Error {
  constructor(message: string) {
    super(oneLine(message));
    this.name = 'RunFileError';
  }
}

/** `path` as shown in a warning: relative to the run folder, with forward slashes. */
export function runFileName(dir: string, path: string): string {
  const rel = relative(resolve(dir), resolve(path));
  return (rel === '' ? '.' : rel).split(sep).join('/');
}

function escapes(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}

/**
 * `name` (a file name or a relative path that the folder's own data gave, like summary.json's
 * profile name) inside `under`, a folder of the run; a RunFileError when it leads out of it.
 */
export function runPath(under: string, name: string): string {
  const path = resolve(under, name);
  if (name.includes('\0') || escapes(relative(resolve(under), path)) || path === resolve(under)) {
    throw new RunFileError(`${JSON.stringify(name.slice(0, 80))} is not a file inside ${under}`);
  }
  return path;
}

/**
 * Checks that `path` lies inside the run folder `dir` once every link is followed, and returns the
 * real path. ENOENT is passed on as it is (a missing file is usually no problem).
 */
async function realPathInside(dir: string, path: string, shown: string): Promise<string> {
  if (escapes(relative(resolve(dir), resolve(path)))) throw new RunFileError(`${shown} is outside the run folder`);
  const [realDir, realFile] = await Promise.all([realpath(dir), realpath(path)]);
  if (escapes(relative(realDir, realFile)) || realFile === realDir) {
    throw new RunFileError(`${shown} leads outside the run folder (to ${realFile.length > 80 ? `…${realFile.slice(-80)}` : realFile})`);
  }
  return realFile;
}

function asRunFileError(err: unknown, shown: string): unknown {
  if (err instanceof RunFileError || isErrno(err, 'ENOENT')) return err;
  if (err instanceof FileRefusedError) return new RunFileError(err.message);
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return new RunFileError(`${shown}: cannot be read (${code ?? errorMessage(err)})`);
}

/**
 * Opens a file of the run folder for streaming (a log, a trace): inside the folder, a regular file.
 * Throws a RunFileError, or the ENOENT of a missing file.
 */
export async function openRunFile(dir: string, path: string, limit: ReadLimit = { maxBytes: Number.POSITIVE_INFINITY }): Promise<FileHandle> {
  const shown = runFileName(dir, path);
  try {
    return await openRegularFile(await realPathInside(dir, path, shown), { ...limit, shown });
  } catch (err) {
    throw asRunFileError(err, shown);
  }
}

/** A file of the run folder as text, within the limit of its kind. Throws as openRunFile. */
export async function readRunText(dir: string, path: string, limit: ReadLimit): Promise<string> {
  const shown = runFileName(dir, path);
  try {
    return await readRegularFile(await realPathInside(dir, path, shown), { ...limit, shown });
  } catch (err) {
    throw asRunFileError(err, shown);
  }
}

/** The same as bytes (a profile read where it is, without a text made of it). */
export async function readRunBytes(dir: string, path: string, limit: ReadLimit): Promise<Buffer> {
  const shown = runFileName(dir, path);
  try {
    return await readRegularFileBytes(await realPathInside(dir, path, shown), { ...limit, shown });
  } catch (err) {
    throw asRunFileError(err, shown);
  }
}

/** Why a file of the run folder will not be read (outside it, not a regular file), else null. */
export async function runFileProblem(dir: string, path: string): Promise<string | null> {
  try {
    await (await openRunFile(dir, path)).close();
    return null;
  } catch (err) {
    return err instanceof RunFileError ? err.message : `${runFileName(dir, path)}: ${errorMessage(err)}`;
  }
}

/**
 * The artifacts whose files can be read; each one that cannot is left out with its reason in
 * `warnings`. Listing a folder gives names inside it, but a name can be a link out of it or a FIFO.
 */
export async function readableArtifacts<T extends { path: string }>(dir: string, artifacts: readonly T[], warnings: string[]): Promise<T[]> {
  const problems = await Promise.all(artifacts.map((a) => runFileProblem(dir, a.path)));
  problems.forEach((p) => {
    if (p !== null) warnings.push(`${p}; not read`);
  });
  return artifacts.filter((_, i) => problems[i] === null);
}

export type RunJson<T> = { status: 'ok'; value: T } | { status: 'missing' } | { status: 'bad'; problem: string };

/**
 * A JSON file of the run folder, read within its limit and shape-checked: the value, 'missing' when
 * there is no such file, or 'bad' with one line of reason (outside the folder, not a regular file,
 * too large, not JSON, nested too deep, the wrong shape).
 */
export async function readRunJson<T>(dir: string, path: string, check: Check, limit: RunJsonLimit): Promise<RunJson<T>> {
  let text: string;
  try {
    text = await readRunText(dir, path, limit);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return { status: 'missing' };
    return { status: 'bad', problem: errorMessage(err) };
  }
  const over = jsonBudgetProblem(text, limit.json);
  if (over !== null) return { status: 'bad', problem: `${runFileName(dir, path)}: ${over}, so not a file V8 Lens wrote` };
  const parsed = parseCheckedJson<T>(text, runFileName(dir, path), check);
  return 'value' in parsed ? { status: 'ok', value: parsed.value } : { status: 'bad', problem: oneLine(parsed.problem) };
}
