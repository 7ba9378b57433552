import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { AgentRecord } from '../preload/agentRecord';
import type { CodeTraceRedirect } from '../preload/codeTraceRedirect';
import { arrayOf, bool, nullable, num, oneOf, optional, shape, str } from '../../shared/model/shapeCheck';
import { RUN_FILE_LIMITS, readRunJson } from './runFiles';
import type { RunLayout } from './runLayout';

/** `<pid>.json` for a process's main thread, `<pid>-<threadId>.json` for a worker thread. */
const RECORD_NAME = /^\d+(-\d+)?\.json$/;

/** The fields of a record the run's readers use (the others are kept as they are, unchecked). */
type ReadFields =
  | 'pid'
  | 'ppid'
  | 'threadId'
  | 'clusterWorkerId'
  | 'hasIpc'
  | 'codeTrace'
  | 'argv'
  | 'processStartMs'
  | 'updatedAtMs'
  | 'final'
  | 'newSpaceMaxBytes'
  | 'maxRssKB'
  | 'cpuUserUs'
  | 'cpuSystemUs'
  | 'tid'
  | 'threadCpuUs'
  | 'threadCpuSource';

export const checkAgentRecord = shape<Pick<AgentRecord, ReadFields>>({
  pid: num,
  ppid: num,
  threadId: optional(num),
  clusterWorkerId: optional(nullable(num)),
  hasIpc: optional(bool),
  codeTrace: optional(nullable(shape<CodeTraceRedirect>({ file: nullable(str), own: bool }))),
  argv: arrayOf(str),
  processStartMs: num,
  updatedAtMs: num,
  final: bool,
  newSpaceMaxBytes: num,
  maxRssKB: num,
  cpuUserUs: num,
  cpuSystemUs: num,
  tid: optional(nullable(num)),
  threadCpuUs: optional(nullable(num)),
  threadCpuSource: optional(oneOf('threadCpuUsage', 'schedstat', null)),
});

/**
 * Every record of the run, main threads and worker threads, in start order. A record that cannot
 * be used (not JSON, the wrong shape, not a regular file…) is left out, with its reason in `warnings`.
 */
export async function readAgentRecords(layout: RunLayout, warnings: string[] = []): Promise<AgentRecord[]> {
  let names: string[];
  try {
    names = await readdir(layout.agentDir);
  } catch {
    return [];
  }
  const records: AgentRecord[] = [];
  for (const name of names.sort()) {
    if (!RECORD_NAME.test(name)) continue;
    // The agent replaces a record atomically, so a record cut short is not ours either.
    const read = await readRunJson<AgentRecord>(layout.dir, join(layout.agentDir, name), checkAgentRecord, RUN_FILE_LIMITS.agentRecord);
    if (read.status === 'ok') records.push(read.value);
    else if (read.status === 'bad') warnings.push(`${read.problem}; that process record was left out`);
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
