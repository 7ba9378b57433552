import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunLayout } from './runLayout';

export interface CpuProfileArtifact {
  path: string;
  file: string;
  pid: number | null;
  threadId: number | null;
}

/** Node names `--cpu-prof` output CPU.<yyyymmdd>.<hhmmss>.<pid>.<threadId>.<seq>.cpuprofile. */
const NODE_PROFILE_NAME = /^CPU\.\d+\.\d+\.(\d+)\.(\d+)\.\d+\.cpuprofile$/;

export async function listCpuProfiles(layout: RunLayout): Promise<CpuProfileArtifact[]> {
  const names = await listDir(layout.cpuDir);
  return names
    .filter((n) => n.endsWith('.cpuprofile'))
    .sort()
    .map((file) => {
      const m = NODE_PROFILE_NAME.exec(file);
      return { path: join(layout.cpuDir, file), file, pid: m ? Number(m[1]) : null, threadId: m ? Number(m[2]) : null };
    });
}

/** V8 writes one log per isolate: isolate-<address>-<pid>-v8.log (workers get their own). */
export async function listV8Logs(layout: RunLayout): Promise<string[]> {
  const names = await listDir(layout.v8LogDir);
  return names.filter((n) => n.endsWith('.log')).sort().map((n) => join(layout.v8LogDir, n));
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}
