/**
 * When V8 Lens is gone (killed outright), the preload stops the target's process group itself, as
 * the launcher would: SIGTERM to the group, then SIGKILL to whatever of it is left once the launched
 * process has exited (after ORPHAN_GRACE_MS, as the launcher's reapGroup does), and at the latest
 * after the run's stop grace. The launched process exits on SIGTERM (that is how its CPU profile is
 * written), so the SIGKILL cannot come from it: a small Node process does it, started in a session
 * of its own (out of the group's reach), with no stdio and an empty environment (no preload, nothing
 * inherited), that ends as soon as the group is empty.
 */
export const ORPHAN_GRACE_MS = 1000;

/** Run as `node -e REAPER_SOURCE <group> <graceMs> <orphanGraceMs>`; plain JavaScript for any Node. */
const REAPER_SOURCE = `
const fs = require('fs');
const [group, graceMs, orphanGraceMs] = process.argv.slice(1).map(Number);
const deadline = Date.now() + graceMs;
let leaderGoneAt = null;
function signal(target, sig) {
  try { process.kill(target, sig); return true; } catch (err) { return err.code === 'EPERM'; }
}
function running(pid) {
  if (!signal(pid, 0)) return false;
  let stat;
  try { stat = fs.readFileSync('/proc/' + pid + '/stat', 'utf8'); } catch { return true; }
  return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z'; // a zombie has ended
}
const timer = setInterval(() => {
  if (!signal(-group, 0)) return clearInterval(timer);
  const now = Date.now();
  if (leaderGoneAt === null && !running(group)) leaderGoneAt = now;
  if (now < deadline && (leaderGoneAt === null || now < leaderGoneAt + orphanGraceMs)) return;
  signal(-group, 'SIGKILL');
  clearInterval(timer);
}, 100);
`;

/** Starts the reaper of process group `group`; false when it could not be started. */
export function startGroupReaper(group: number, graceMs: number): boolean {
  try {
    // Loaded only now: the preload adds nothing to a target's start-up that it does not need.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { spawn } = require('node:child_process') as typeof import('node:child_process');
    const reaper = spawn(process.execPath, ['-e', REAPER_SOURCE, String(group), String(graceMs), String(ORPHAN_GRACE_MS)], {
      detached: true,
      stdio: 'ignore',
      env: {},
      windowsHide: true,
    });
    reaper.on('error', () => undefined);
    reaper.unref();
    return reaper.pid !== undefined;
  } catch {
    return false;
  }
}
