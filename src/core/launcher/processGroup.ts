/**
 * Signals to a target's whole process group. Targets are spawned `detached`, which on POSIX makes
 * the child the leader of a new group (pgid = pid), so the app's own children are reached too and
 * nothing outlives a run. Windows has no process groups; there we signal the child alone.
 */

const liveGroups = new Set<number>();
let exitHookInstalled = false;

export function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // Last resort if V8 Lens itself exits (crash, Ctrl-C twice): leave no target behind.
    process.on('exit', () => {
      for (const group of liveGroups) signalGroup(group, 'SIGKILL');
    });
  }
}

export function untrackGroup(pid: number): void {
  liveGroups.delete(pid);
}

/** Sends a signal to the group; false when no process of the group is left. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, signal);
    return true;
  } catch {
    return false;
  }
}

export function groupAlive(pid: number): boolean {
  return signalGroup(pid, 0);
}
