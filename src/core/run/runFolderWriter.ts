/**
 * Writing a run folder, the same for a launched and an attached run: the empty-folder check, the
 * JSON records, and the summary that an analysis failure still leaves behind.
 */
import { mkdir, readdir, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionRecord } from '../../shared/model/session';
import { emptySummary, type Summary } from '../../shared/model/summary';
import { UserError, errorMessage } from '../util/errors';
import { analyzeRun, type LiveGcData } from './analyzeRun';
import type { RunLayout } from './runLayout';
import { EXIT } from '../util/exitCodes';
import { writeFileWhole } from '../util/safeWrite';

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

/**
 * session.json, summary.json, load.json: indented, one trailing newline, as other tools expect.
 * Whole or not at all (a temporary file renamed over it): on a full disk the old record stays
 * readable rather than cut short.
 */
export async function writeRunJson(path: string, value: unknown): Promise<void> {
  await writeFileWhole(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Room kept in the run folder for its last records (session.json, summary.json of a small run). */
const RECORD_SPACE_BYTES = 32 * 1024;
const RECORD_SPACE_FILE = '.v8-lens-record-space';

/**
 * Keeps room for the run's last records: a file of 32 KB made when the run starts and removed
 * just before they are written, so a disk the run filled (its V8 log, its GC trace) still takes the
 * session.json that says what happened. Best effort: a disk too full for it goes on without.
 * Returns the function that frees it.
 */
export async function reserveRecordSpace(layout: RunLayout): Promise<() => Promise<void>> {
  const path = join(layout.dir, RECORD_SPACE_FILE);
  const made = await writeFile(path, Buffer.alloc(RECORD_SPACE_BYTES), { flag: 'wx' }).then(
    () => true,
    () => false,
  );
  if (!made) await unlink(path).catch(() => undefined);
  return () => (made ? unlink(path).catch(() => undefined) : Promise.resolve());
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
