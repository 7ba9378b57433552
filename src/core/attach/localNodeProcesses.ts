/**
 * The Node processes one could attach to, read from Linux's /proc. Other platforms have no /proc:
 * the list is empty there (LOCAL_PROCESS_LISTING_SUPPORTED says so) and the user gives an address.
 */
import { readdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { loadRunnerPath } from '../launcher/bundledScripts';
import { helperProcessKind } from './helperProcesses';
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

export interface ListOptions {
  /** Folders of V8 Lens's own bundles; by default the one its load generator is in. */
  ownScriptDirs?: readonly string[];
  /** Called with each Node process left out as not the user's (helperProcesses.ts), and why. */
  onHidden?: (pid: number, why: string) => void;
}

/**
 * Node processes of this user that are the user's programs, newest first: not ourselves, not an
 * editor's helpers (tsserver, language servers, the extension host), not V8 Lens's own (its load
 * generator). Linux only; elsewhere [].
 */
export async function listLocalNodeProcesses(options: ListOptions = {}): Promise<LocalNodeProcess[]> {
  if (!LOCAL_PROCESS_LISTING_SUPPORTED) return [];
  const own = options.ownScriptDirs ?? ownBundleDirs();
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const pids = entries.filter((e) => /^\d+$/.test(e)).map(Number).filter((pid) => pid !== process.pid);
  const infos = (await Promise.all(pids.map((pid) => readProcessInfo(pid).catch(() => null)))).filter((p): p is ProcessInfo => {
    if (p === null || !p.isNode || !p.sameUser) return false;
    const hidden = helperProcessKind(p.argv, own);
    if (hidden !== null) options.onHidden?.(p.pid, hidden);
    return hidden === null;
  });
  infos.sort((a, b) => b.startTicks - a.startTicks || b.pid - a.pid);
  return Promise.all(
    infos.map(async (p) => ({
      pid: p.pid,
      commandLine: p.argv.join(' '),
      inspectorPort: (await findInspector(p.pid, 500).catch(() => null))?.port ?? null,
    })),
  );
}

/** Where V8 Lens's bundles are (none found: nothing is recognised as ours by folder). */
function ownBundleDirs(): string[] {
  try {
    return [dirname(loadRunnerPath())];
  } catch {
    return [];
  }
}
