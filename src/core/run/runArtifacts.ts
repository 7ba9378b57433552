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

export interface V8LogArtifact {
  path: string;
  file: string;
  /** From V8's name `isolate-<address>-<pid>-v8.log`; null for a log named otherwise. */
  pid: number | null;
  /** The isolate's address as V8 prints it, also in `--trace-gc` lines (`[pid:0x…]`). */
  isolate: string | null;
}

const V8_LOG_NAME = /^isolate-(0x[0-9a-fA-F]+|[0-9A-Fa-f]+)-(\d+)-/;

/** V8 writes one log per isolate: isolate-<address>-<pid>-v8.log (workers get their own). */
export async function listV8Logs(layout: RunLayout): Promise<V8LogArtifact[]> {
  const names = await listDir(layout.v8LogDir);
  return names
    .filter((n) => n.endsWith('.log'))
    .sort()
    .map((file) => {
      const m = V8_LOG_NAME.exec(file);
      return { path: join(layout.v8LogDir, file), file, pid: m ? Number(m[2]) : null, isolate: m ? m[1]! : null };
    });
}

export interface CodeTraceArtifact {
  path: string;
  file: string;
  /** `code-<pid>-<threadId>.asm`: one isolate's own trace. */
  pid: number | null;
  threadId: number | null;
  /**
   * 'own': one isolate's; 'threads': `code-<pid>-threads.asm`, shared by that process's worker
   * threads whose tracer started before their preload (Node 24); 'startup': the command line's
   * file, shared by every isolate that traced before its preload ran.
   */
  kind: 'own' | 'threads' | 'startup';
}

const OWN_TRACE_NAME = /^code-(\d+)-(\d+)\.asm$/;
const THREADS_TRACE_NAME = /^code-(\d+)-threads\.asm$/;

/** The code traces of a run: per process and thread, plus the shared ones (see codeTraceRedirect.ts). */
export async function listCodeTraces(layout: RunLayout): Promise<CodeTraceArtifact[]> {
  const names = await listDir(layout.v8LogDir);
  const out: CodeTraceArtifact[] = [];
  for (const file of names.sort()) {
    const path = join(layout.v8LogDir, file);
    const own = OWN_TRACE_NAME.exec(file);
    if (own) {
      out.push({ path, file, pid: Number(own[1]), threadId: Number(own[2]), kind: 'own' });
      continue;
    }
    const threads = THREADS_TRACE_NAME.exec(file);
    if (threads) out.push({ path, file, pid: Number(threads[1]), threadId: null, kind: 'threads' });
    // Run folders written before per-isolate traces called the one trace code-traces.asm.
    else if (file === 'code-startup.asm' || file === 'code-traces.asm') out.push({ path, file, pid: null, threadId: null, kind: 'startup' });
  }
  return out;
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}
