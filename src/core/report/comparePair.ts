/**
 * What `v8-lens compare` accepts: two run folders, or two files of the same kind (two .cpuprofile
 * files, two GC traces). A run folder against a lone profile would set a run's GC, load and memory
 * figures against nothing, so it is refused with one line, before anything is parsed.
 */
import { stat } from 'node:fs/promises';
import { sniffArtifact, type ArtifactKind } from './loadReport';
import { UserError, errorMessage, isErrno } from '../util/errors';
import { EXIT } from '../util/exitCodes';
import { notRegularFile } from '../util/files';

type SourceKind = 'run' | ArtifactKind;

const KIND_NAMES: Record<SourceKind, string> = {
  run: 'a run folder',
  cpuprofile: 'a CPU profile (.cpuprofile)',
  'gc-trace': 'a GC trace',
  'v8-log': 'a V8 log',
  heapprofile: 'a heap profile (.heapprofile)',
  pprof: 'a pprof profile',
};

export async function requireComparablePair(base: string, other: string): Promise<void> {
  const [a, b] = await Promise.all([sourceKind(base), sourceKind(other)]);
  for (const [kind, path] of [[a, base], [b, other]] as const) {
    if (kind === 'heapprofile' || kind === 'pprof') throw new UserError(`${path} is ${KIND_NAMES[kind]}: compare takes two run folders, .cpuprofile files or GC traces (v8-lens report opens it)`);
    if (kind === 'v8-log') throw new UserError(`${path} is a V8 log: it has deopts only, and compare compares CPU profiles and GC; give two run folders, .cpuprofile files or GC traces`);
  }
  if (a !== b) {
    throw new UserError(`cannot compare ${KIND_NAMES[a]} (${base}) with ${KIND_NAMES[b]} (${other}): give two run folders, or two files of the same kind`);
  }
}

/** Missing paths are usage errors (exit 2) as for `report`; unknown content is bad input (exit 1). */
async function sourceKind(path: string): Promise<SourceKind> {
  const info = await stat(path).catch((err: unknown) => {
    if (isErrno(err, 'ENOENT')) throw new UserError(`no such file or folder: ${path}`, EXIT.usage);
    throw new UserError(`cannot read ${path}: ${errorMessage(err)}`, EXIT.usage);
  });
  if (info.isDirectory()) return 'run';
  const notFile = notRegularFile(info);
  if (notFile) throw new UserError(`${path} is ${notFile}, not a file to compare`);
  if (info.size === 0) throw new UserError(`${path} is empty`);
  const kind = await sniffArtifact(path);
  if (!kind) throw new UserError(`${path} is not a run folder, a .cpuprofile, a GC trace (--trace-gc output) or a V8 log (--logfile)`);
  return kind;
}
