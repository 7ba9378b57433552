/**
 * Writing a run folder, the same for a launched and an attached run: the empty-folder check, the
 * JSON records, and the summary that an analysis failure still leaves behind.
 */
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import type { SessionRecord } from '../../shared/model/session';
import { emptySummary, type Summary } from '../../shared/model/summary';
import { UserError, errorMessage } from '../util/errors';
import { analyzeRun, type LiveGcData } from './analyzeRun';
import type { RunLayout } from './runLayout';
import { EXIT } from '../util/exitCodes';

/**
 * A run never writes into a folder that holds something: `--out` naming an old run must not mix
 * two. Returns whether the (empty) folder existed, so a failed start removes only what it made.
 */
export async function requireEmptyRunFolder(layout: RunLayout): Promise<boolean> {
  const info = await stat(layout.dir).catch(() => null);
  if (info && !info.isDirectory()) throw new UserError(`run folder ${layout.dir} already exists and is not a folder; choose another --out`, EXIT.usage);
  const existing = await readdir(layout.dir).catch(() => null);
  if (existing && existing.length > 0) throw new UserError(`run folder ${layout.dir} already exists and is not empty; choose another --out`, EXIT.usage);
  return existing !== null;
}

/** The run folder and the given subfolders of its layout; a folder that cannot be made is one line. */
export async function createRunFolder(layout: RunLayout, subfolders: readonly string[]): Promise<void> {
  for (const dir of [layout.dir, ...subfolders]) {
    await mkdir(dir, { recursive: true }).catch((err: unknown) => {
      throw new UserError(`cannot create the run folder ${layout.dir}: ${errorMessage(err)}`, EXIT.usage);
    });
  }
}

/** session.json, summary.json, load.json: indented, one trailing newline, as other tools expect. */
export async function writeRunJson(path: string, value: unknown): Promise<void> {
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * The run's summary: analyzeRun(), or, when the analysis itself fails, an empty summary whose
 * warnings say why, after the launch's limitations (the warnings are the one list reports show).
 * The raw artifacts stay in the folder either way.
 */
export async function summarizeRunFolder(layout: RunLayout, session: SessionRecord, liveGc?: LiveGcData): Promise<Summary> {
  return analyzeRun(layout, session, liveGc).catch((err: unknown) =>
    emptySummary({ kind: 'run', path: layout.dir }, { warnings: [...session.launch.limitations, `analysis failed: ${errorMessage(err)}`] }),
  );
}
