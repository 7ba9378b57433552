/**
 * Which V8 Lens process runs a capture (session.json's `owner`), and what a later reader concludes
 * when a run says 'running' but that process is gone: the capture was interrupted (V8 Lens was
 * killed, the editor or the machine went down). The run folder holds what was written until then;
 * its session.json is marked 'interrupted' with what is known, so every later reader agrees.
 */
import { readdir, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { SessionRecord } from '../../shared/model/session';
import { readProcStat } from '../launcher/procStats';
import { writeRunJson } from './runFolderWriter';
import type { RunLayout } from './runLayout';

/** This process, as a run's owner. */
export function runOwner(): NonNullable<SessionRecord['owner']> {
  return { pid: process.pid, host: hostname(), startTicks: readProcStat(process.pid)?.startTicks ?? null };
}

/**
 * Whether the V8 Lens of a 'running' session is gone: recorded on this machine, and its process is
 * no longer there, is a zombie, or is another process with the same pid. Null when it cannot be
 * told (no owner recorded, another machine, not Linux).
 */
export function ownerGone(session: SessionRecord): boolean | null {
  const owner = session.owner;
  if (session.status !== 'running' || !owner || owner.host !== hostname() || process.platform !== 'linux') return null;
  if (owner.pid === process.pid) return false;
  const stat = readProcStat(owner.pid);
  if (stat === null || stat.state === 'Z') return true;
  return owner.startTicks !== null && stat.startTicks !== owner.startTicks;
}

/** The latest time anything in the folder (and its subfolders, one level down) was written. */
async function lastWritten(dir: string): Promise<Date | null> {
  let latest = 0;
  const look = async (path: string, depth: number) => {
    const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
    for (const e of entries.slice(0, 10_000)) {
      const full = join(path, e.name);
      if (e.isDirectory()) {
        if (depth < 1) await look(full, depth + 1);
      } else {
        const info = await stat(full).catch(() => null);
        if (info && info.mtimeMs > latest) latest = info.mtimeMs;
      }
    }
  };
  await look(dir, 0);
  return latest > 0 ? new Date(latest) : null;
}

/**
 * The session marked 'interrupted', saved to session.json when the folder can be written (a
 * read-only folder keeps its file; the returned record says it all the same).
 */
export async function markInterrupted(layout: RunLayout, session: SessionRecord): Promise<SessionRecord> {
  const last = await lastWritten(layout.dir);
  const marked: SessionRecord = { ...session, status: 'interrupted', interrupted: { detectedAt: new Date().toISOString(), lastWrittenAt: last ? last.toISOString() : null } };
  await writeRunJson(layout.session, marked).catch(() => undefined);
  return marked;
}

/** What a report says about an interrupted run, one line. */
export function interruptedWarning(session: SessionRecord): string {
  const who = session.owner ? ` (pid ${session.owner.pid})` : '';
  const last = session.interrupted?.lastWrittenAt;
  return `the capture was interrupted: the V8 Lens that ran it${who} ended before the run did (killed, or the editor or machine went down), so the figures are what the folder holds${last ? `; it was last written at ${last}` : ''}`;
}
