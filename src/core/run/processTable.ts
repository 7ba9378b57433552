/**
 * Which processes and threads a run had, and which artifact belongs to which. A target may start
 * other Node processes (cluster workers, forked children, npm's own) and worker threads; each writes
 * its own CPU profile (named by pid and thread id), GC lines (prefixed `[pid:isolate]`), V8 log
 * (`isolate-<isolate>-<pid>-v8.log`), code trace (`code-<pid>-<threadId>.asm`) and preload record.
 *
 * Only GC lines and V8 logs name an isolate instead of a thread. A process's main isolate is the one
 * created first (its V8 log's birth time, else its first GC line); its other isolates are its worker
 * threads, paired with them in start order.
 */
import { basename, relative } from 'node:path';
import type { AgentRecord } from '../preload/agentRecord';
import type { ProcessRole } from '../../shared/model/summary';
import { chooseMainProcess, isMainThreadRecord, isPackageManager } from './agentRecords';
import type { CodeTraceArtifact, CpuProfileArtifact, V8LogArtifact } from './runArtifacts';

export interface RunProcess {
  /** `"<pid>"`, `"<pid>/<threadId>"`, or `"<pid>/<isolate>"` for a thread known only by its isolate. */
  id: string;
  pid: number;
  threadId: number | null;
  parentPid: number | null;
  role: ProcessRole;
  command: string;
  record: AgentRecord | null;
  /** The app: the launched process, or through npm the process npm ran for the script. */
  isApp: boolean;
  profile: CpuProfileArtifact | null;
  /** Its isolate's address as GC lines and V8 log names print it; null when not seen. */
  isolate: string | null;
  logs: V8LogArtifact[];
  /** Its own code trace; null when it has none (see `record.codeTrace` for why). */
  codeTrace: CodeTraceArtifact | null;
}

export interface ProcessTableInput {
  records: readonly AgentRecord[];
  launchedPid: number | null;
  /** The target's working folder, to show commands with short paths. */
  cwd: string | null;
  profiles: readonly CpuProfileArtifact[];
  /** GC isolates in the order of their first event. */
  gcIsolates: readonly { pid: number; isolate: string }[];
  /** V8 logs with their birth time when the file system knows it (null otherwise). */
  logs: readonly (V8LogArtifact & { createdMs: number | null })[];
  codeTraces: readonly CodeTraceArtifact[];
}

export function buildProcessTable(input: ProcessTableInput): RunProcess[] {
  const app = chooseMainProcess(input.records, input.launchedPid);
  const byId = new Map<string, RunProcess>();
  const entry = (pid: number, threadId: number | null, isolate: string | null = null): RunProcess => {
    const id = threadId === 0 ? String(pid) : threadId !== null ? `${pid}/${threadId}` : `${pid}/${isolate ?? '?'}`;
    let p = byId.get(id);
    if (p === undefined) {
      p = { id, pid, threadId, parentPid: threadId === 0 ? null : pid, role: threadId === 0 ? 'child' : 'worker thread', command: '', record: null, isApp: false, profile: null, isolate: null, logs: [], codeTrace: null };
      byId.set(id, p);
    }
    return p;
  };

  for (const r of input.records) {
    const p = entry(r.pid, r.threadId ?? 0);
    p.record = r;
    if (isMainThreadRecord(r)) p.parentPid = r.ppid;
  }
  for (const profile of input.profiles) if (profile.pid !== null) entry(profile.pid, profile.threadId ?? 0).profile = profile;
  for (const trace of input.codeTraces) if (trace.kind === 'own' && trace.pid !== null) entry(trace.pid, trace.threadId).codeTrace = trace;
  placeIsolates(input, entry, byId);

  const processes = [...byId.values()];
  assignRoles(processes, app, input.launchedPid);
  for (const p of processes) p.command = describeCommand(p, input.cwd);
  return processes.sort(byStart);
}

/** Gives each process its main isolate and each worker thread one of the others (see the file comment). */
function placeIsolates(input: ProcessTableInput, entry: (pid: number, threadId: number | null, isolate?: string | null) => RunProcess, byId: Map<string, RunProcess>): void {
  const pids = new Set<number>([...input.gcIsolates.map((i) => i.pid), ...input.logs.flatMap((l) => (l.pid === null ? [] : [l.pid]))]);
  for (const pid of pids) {
    const created = new Map<string, number | null>();
    for (const log of input.logs) if (log.pid === pid && log.isolate !== null) created.set(log.isolate, log.createdMs);
    const gcOrder = input.gcIsolates.filter((i) => i.pid === pid).map((i) => i.isolate);
    const isolates = [...new Set([...gcOrder, ...created.keys()])];
    const birth = (iso: string) => created.get(iso) ?? null;
    const allBorn = isolates.every((iso) => birth(iso) !== null);
    // Birth times when every isolate has one; else the order of first GC, then logs without GC.
    if (allBorn) isolates.sort((a, b) => birth(a)! - birth(b)!);
    const [mainIsolate, ...others] = isolates;
    if (mainIsolate === undefined) continue;
    const main = entry(pid, 0);
    main.isolate = mainIsolate;
    const threads = [...byId.values()].filter((p) => p.pid === pid && p.threadId !== 0).sort(byStart);
    others.forEach((iso, i) => {
      const thread = threads[i] ?? entry(pid, null, iso);
      thread.isolate = iso;
    });
    for (const log of input.logs) {
      if (log.pid !== pid) continue;
      const owner = [...byId.values()].find((p) => p.pid === pid && p.isolate === log.isolate);
      owner?.logs.push(log);
    }
  }
}

function assignRoles(processes: RunProcess[], app: AgentRecord | null, launchedPid: number | null): void {
  const appPid = app?.pid ?? launchedPid;
  const clusterParents = new Set(processes.filter((p) => p.threadId === 0 && p.record?.clusterWorkerId != null).map((p) => p.parentPid));
  for (const p of processes) {
    if (p.threadId !== 0) {
      p.role = 'worker thread';
      continue;
    }
    p.isApp = p.pid === appPid;
    if (p.record?.clusterWorkerId != null) p.role = 'worker';
    else if (clusterParents.has(p.pid)) p.role = 'primary';
    else if (p.record && isPackageManager(p.record)) p.role = 'npm';
    else if (p.isApp) p.role = 'main';
    else p.role = 'child';
  }
}

function describeCommand(p: RunProcess, cwd: string | null): string {
  if (p.threadId !== 0) return p.threadId === null ? 'worker thread' : `worker thread ${p.threadId}`;
  const argv = p.record?.argv;
  if (!argv || argv.length === 0) return '';
  const script = argv[1] === undefined ? [] : [cwd && !relative(cwd, argv[1]).startsWith('..') ? relative(cwd, argv[1]) : basename(argv[1])];
  return ['node', ...script, ...argv.slice(2)].join(' ');
}

function byStart(a: RunProcess, b: RunProcess): number {
  const start = (p: RunProcess) => p.record?.processStartMs ?? Number.POSITIVE_INFINITY;
  return start(a) - start(b) || a.pid - b.pid || (a.threadId ?? Number.MAX_SAFE_INTEGER) - (b.threadId ?? Number.MAX_SAFE_INTEGER);
}
