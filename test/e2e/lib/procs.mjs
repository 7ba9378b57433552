// Everything the harness starts is registered here and stopped on every way out: normal end,
// a thrown error, Ctrl-C / SIGTERM, or process.exit.
//
// code-server forks a file watcher, one extension host per browser connection and an agent host;
// the extension host in turn starts the programs V8 Lens profiles, in *their own* process groups
// and sessions (the engine's launcher uses setsid so a stop reaches the app's children). Killing
// code-server's process group therefore does not reach them, and once their parent dies they are
// re-parented to init. So before killing, the whole descendant tree is read from /proc (by PPid),
// and every descendant's process group is signalled as well.
import { readdirSync, readFileSync } from 'node:fs';

const tracked = new Set(); // { pid, name, seen: Map<pid, { pid, pgid, start }> }
const cleanups = []; // async functions (browser.close, …), run before the process kill
let installed = false;
let interruptHook = null;

/** What to print (the final result line) when the run is interrupted by a signal. */
export function onInterrupt(fn) {
  interruptHook = fn;
}

function statOf(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = s.slice(s.lastIndexOf(')') + 2).split(' '); // after "pid (comm) "
    return { state: rest[0], ppid: Number(rest[1]), pgid: Number(rest[2]), start: rest[19] };
  } catch {
    return null;
  }
}

/** Every live descendant of pid (children first-level first), read from /proc. */
export function descendants(pid) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const st = statOf(Number(name));
    if (!st) continue;
    if (!children.has(st.ppid)) children.set(st.ppid, []);
    children.get(st.ppid).push(Number(name));
  }
  const out = [];
  const queue = [pid];
  while (queue.length) {
    for (const c of children.get(queue.shift()) ?? []) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

function alive(pid, start) {
  const st = statOf(pid);
  return st !== null && st.state !== 'Z' && (start === undefined || st.start === start);
}

function signalTree(targets, signal) {
  for (const { pid, pgid } of targets) {
    if (pgid > 1) try { process.kill(-pgid, signal); } catch { /* gone */ }
    try { process.kill(pid, signal); } catch { /* gone */ }
  }
}

/** pid and its live descendants, with their process groups (never our own group). */
function snapshot(pid) {
  const ownPgid = statOf(process.pid)?.pgid;
  const out = [];
  for (const p of [pid, ...descendants(pid)]) {
    const st = statOf(p);
    if (st && st.pgid !== ownPgid) out.push({ pid: p, pgid: st.pgid, start: st.start });
  }
  return out;
}

/** The current tree plus every descendant seen earlier that still lives (orphans re-parented to init). */
function targetsOf(entry) {
  const now = snapshot(entry.pid);
  const seen = [...(entry.seen?.values() ?? [])].filter((t) => alive(t.pid, t.start));
  const byPid = new Map([...seen, ...now].map((t) => [t.pid, t]));
  return [...byPid.values()];
}

/** SIGTERM the tree (its groups and every descendant's group), SIGKILL what is left after graceMs. */
async function killEntry(entry, graceMs = 3000) {
  clearInterval(entry.timer);
  const targets = targetsOf(entry);
  signalTree(targets, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && targets.some((t) => alive(t.pid, t.start))) {
    await new Promise((r) => setTimeout(r, 100));
  }
  // Anything started meanwhile by a dying process is in the same groups: kill the groups again.
  signalTree(targets.filter((t) => alive(t.pid, t.start) || t.pgid > 1), 'SIGKILL');
}

export async function killTree(pid, graceMs) {
  await killEntry({ pid }, graceMs);
}

function killEntrySync(entry) {
  signalTree(targetsOf(entry), 'SIGKILL');
}

/** Registers a spawned child (started with detached: true, so it leads its own process group). */
export function track(child, name) {
  installHandlers();
  const entry = { pid: child.pid, name, seen: new Map() };
  // Remember descendants as they appear, so orphans can still be found if the parent dies first.
  entry.timer = setInterval(() => {
    for (const t of snapshot(entry.pid)) if (t.pid !== entry.pid) entry.seen.set(t.pid, t);
  }, 1000);
  entry.timer.unref();
  tracked.add(entry);
  return {
    pid: child.pid,
    async stop(graceMs) {
      await killEntry(entry, graceMs);
      tracked.delete(entry);
    },
  };
}

/** Registers an async cleanup (e.g. closing the browser) that runs before processes are killed. */
export function onCleanup(fn) {
  installHandlers();
  cleanups.push(fn);
}

let stopping = null;
/** True once stopAll() has begun (exits seen after this are expected). */
export function isStopping() {
  return stopping !== null;
}

/** Runs the cleanups, then kills every tracked tree. Idempotent. */
export function stopAll() {
  stopping ??= (async () => {
    for (const fn of cleanups.splice(0).reverse()) {
      try { await Promise.race([fn(), new Promise((r) => setTimeout(r, 5000))]); } catch { /* best effort */ }
    }
    await Promise.all([...tracked].map(async (e) => { await killEntry(e); tracked.delete(e); }));
  })();
  return stopping;
}

function installHandlers() {
  if (installed) return;
  installed = true;
  let signals = 0;
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => {
      signals++;
      if (signals > 1) {
        for (const e of tracked) killEntrySync(e);
        process.exit(130);
      }
      console.error(`\n${sig}: stopping everything that was started (a second ${sig} kills at once)…`);
      stopAll().finally(() => {
        interruptHook?.();
        process.exit(130);
      });
    });
  }
  // Last resort (process.exit from anywhere, an uncaught error): synchronous SIGKILL of the trees.
  process.on('exit', () => {
    for (const e of tracked) killEntrySync(e);
  });
}
