/**
 * The Node processes one could attach to, read from Linux's /proc. Other platforms have no /proc:
 * the list is empty there (LOCAL_PROCESS_LISTING_SUPPORTED says so) and the user gives an address.
 */
import { readdir } from 'node:fs/promises';
import { findInspector } from './inspectorDiscovery';
import { readProcessInfo, type ProcessInfo } from './procFs';

export interface LocalNodeProcess {
  pid: number;
  commandLine: string;
  /** Loopback port of an open inspector, or null. */
  inspectorPort: number | null;
}

/** Whether listLocalNodeProcesses can see anything on this platform. */
export const LOCAL_PROCESS_LISTING_SUPPORTED = process.platform === 'linux';

/** Node processes of this user, not ourselves, newest first. Linux only; elsewhere []. */
export async function listLocalNodeProcesses(): Promise<LocalNodeProcess[]> {
  if (!LOCAL_PROCESS_LISTING_SUPPORTED) return [];
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const pids = entries.filter((e) => /^\d+$/.test(e)).map(Number).filter((pid) => pid !== process.pid);
  const infos = (await Promise.all(pids.map((pid) => readProcessInfo(pid).catch(() => null)))).filter(
    (p): p is ProcessInfo => p !== null && p.isNode && p.sameUser,
  );
  infos.sort((a, b) => b.startTicks - a.startTicks || b.pid - a.pid);
  return Promise.all(
    infos.map(async (p) => ({
      pid: p.pid,
      commandLine: p.argv.join(' '),
      inspectorPort: (await findInspector(p.pid, 500).catch(() => null))?.port ?? null,
    })),
  );
}
