import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { AgentRecord } from '../preload/agentRecord';

/** `<pid>.json` for a process's main thread, `<pid>-<threadId>.json` for a worker thread. */
const RECORD_NAME = /^\d+(-\d+)?\.json$/;

/** Every record of the run, main threads and worker threads, in start order. */
export async function readAgentRecords(agentDir: string): Promise<AgentRecord[]> {
  let names: string[];
  try {
    names = await readdir(agentDir);
  } catch {
    return [];
  }
  const records: AgentRecord[] = [];
  for (const name of names) {
    if (!RECORD_NAME.test(name)) continue;
    try {
      records.push(JSON.parse(await readFile(join(agentDir, name), 'utf8')) as AgentRecord);
    } catch {
      // A record cut by a kill is replaced atomically, so this is a foreign file: ignore it.
    }
  }
  return records.sort((a, b) => a.processStartMs - b.processStartMs);
}

export function isMainThreadRecord(record: AgentRecord): boolean {
  return (record.threadId ?? 0) === 0;
}

const PACKAGE_MANAGER = /^(npm-cli|npx-cli|npm|npx|yarn|yarn\.js|pnpm|pnpm\.cjs|pnpx|corepack|bun)(\.c?js)?$/;

export function isPackageManager(record: AgentRecord): boolean {
  return PACKAGE_MANAGER.test(basename(record.argv[1] ?? ''));
}

/**
 * The process that is "the app". A direct launch: the one we started. Through npm (NODE_OPTIONS
 * reaches every Node process, npm's own too): the busiest process that is not a package manager,
 * so npm's process never masquerades as the app.
 */
export function chooseMainProcess(records: readonly AgentRecord[], launchedPid: number | null): AgentRecord | null {
  const processes = records.filter(isMainThreadRecord);
  const launched = processes.find((r) => r.pid === launchedPid);
  if (launched && !isPackageManager(launched)) return launched;
  const apps = processes.filter((r) => !isPackageManager(r));
  if (apps.length === 0) return launched ?? processes[0] ?? null;
  return apps.reduce((best, r) => (r.cpuUserUs + r.cpuSystemUs > best.cpuUserUs + best.cpuSystemUs ? r : best));
}

export function processWallMs(record: AgentRecord): number {
  return Math.max(0, record.updatedAtMs - record.processStartMs);
}
