import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readProcStat } from '../launcher/procStats';

/** How long a pid found not to be the run's is believed before it is checked again. */
const RECHECK_AFTER_MS = 500;
/** Pids remembered as not the run's, at most (an app printing many fake prefixes must not grow us). */
const MAX_REJECTED = 256;

/**
 * Which pids are the run's processes, for telling V8's GC lines (`[pid:isolate] … ms: …`) from app
 * lines that look like them: the launched process (whose pid is its process group's id), every
 * process the preload ran in (it writes `agent/<pid>.json` before the app's code runs: forked
 * children, cluster workers, also ones that left the group), and on Linux any process still in the
 * target's group. Checks are cheap and made only for lines that have a V8 prefix.
 */
export class RunProcesses {
  private readonly known = new Set<number>();
  private readonly rejected = new Map<number, number>();

  constructor(
    private readonly groupId: number,
    private readonly agentDir: string,
  ) {
    this.known.add(groupId);
  }

  has(pid: number): boolean {
    if (this.known.has(pid)) return true;
    const now = Date.now();
    const checkedAt = this.rejected.get(pid);
    if (checkedAt !== undefined && now - checkedAt < RECHECK_AFTER_MS) return false;
    if (this.isRunProcess(pid)) {
      this.known.add(pid);
      this.rejected.delete(pid);
      return true;
    }
    if (this.rejected.size >= MAX_REJECTED) this.rejected.clear();
    this.rejected.set(pid, now);
    return false;
  }

  private isRunProcess(pid: number): boolean {
    if (!Number.isSafeInteger(pid) || pid <= 0) return false;
    if (existsSync(join(this.agentDir, `${pid}.json`))) return true;
    return readProcStat(pid)?.pgrp === this.groupId;
  }
}
