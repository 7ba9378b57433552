import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { AgentRecord } from '../preload/agentRecord';

export async function readAgentRecords(agentDir: string): Promise<AgentRecord[]> {
  let names: string[];
  try {
    names = await readdir(agentDir);
  } catch {
    return [];
  }
  const records: AgentRecord[] = [];
  for (const name of names) {
    if (!/^\d+\.json$/.test(name)) continue;
    try {
      records.push(JSON.parse(await readFile(join(agentDir, name), 'utf8')) as AgentRecord);
    } catch {
      // A record cut by a kill is replaced atomically, so this is a foreign file: ignore it.
    }
  }
  return records.sort((a, b) => a.processStartMs - b.processStartMs);
}

const PACKAGE_MANAGER = /^(npm-cli|npx-cli|npm|npx|yarn|yarn\.js|pnpm|pnpm\.cjs|pnpx|corepack|bun)(\.c?js)?$/;

/**
 * The process that is "the app". A direct launch: the one we started. Through npm (NODE_OPTIONS
 * reaches every Node process, npm's own too): the busiest process that is not a package manager,
 * so npm's process never masquerades as the app.
 */
export function chooseMainProcess(records: readonly AgentRecord[], launchedPid: number | null): AgentRecord | null {
  const isPackageManager = (r: AgentRecord) => PACKAGE_MANAGER.test(basename(r.argv[1] ?? ''));
  const launched = records.find((r) => r.pid === launchedPid);
  if (launched && !isPackageManager(launched)) return launched;
  const apps = records.filter((r) => !isPackageManager(r));
  if (apps.length === 0) return launched ?? records[0] ?? null;
  return apps.reduce((best, r) => (r.cpuUserUs + r.cpuSystemUs > best.cpuUserUs + best.cpuSystemUs ? r : best));
}

export function processWallMs(record: AgentRecord): number {
  return Math.max(0, record.updatedAtMs - record.processStartMs);
}
