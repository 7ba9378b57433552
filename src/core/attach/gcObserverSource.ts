/**
 * The small GC observer V8 Lens installs in an attached process (Runtime.evaluate), and how its
 * reports are read back. A PerformanceObserver on 'gc' entries calls a CDP binding per entry with
 * JSON; perf_hooks' entries match --trace-gc in count and duration, but are delivered
 * asynchronously (in a setImmediate), so heap figures are read when the entry is delivered.
 */

/** perf_hooks `detail.kind` (V8's GCType bits) → the names --trace-gc prints. */
export const GC_KIND_NAMES: Readonly<Record<number, string>> = {
  1: 'Scavenge', // NODE_PERFORMANCE_GC_MINOR (kGCTypeScavenge)
  2: 'Minor Mark-Sweep', // kGCTypeMinorMarkSweep (--minor-ms)
  4: 'Mark-Compact', // NODE_PERFORMANCE_GC_MAJOR
  8: 'Incremental marking', // NODE_PERFORMANCE_GC_INCREMENTAL (start of incremental marking)
  16: 'Weak callbacks', // NODE_PERFORMANCE_GC_WEAKCB
};

export function gcKindName(kind: number): string {
  return GC_KIND_NAMES[kind] ?? `GC kind ${kind}`;
}

/** The globals one installation uses: the binding (a function) and the observer's state. */
export interface ObserverNames {
  binding: string;
  state: string;
}

/** Every global V8 Lens puts into a target starts with this. */
export const GLOBAL_PREFIX = '__v8lens_gc_';

export function observerNames(uniqueSuffix: string): ObserverNames {
  const binding = `${GLOBAL_PREFIX}${uniqueSuffix.replace(/[^A-Za-z0-9_]/g, '_')}`;
  return { binding, state: `${binding}_state` };
}

/** One report from the observer, as the binding receives it. */
export interface ObservedGc {
  /** GC start (the entry's startTime), ms on the target's performance clock; null from an older observer. */
  s: number | null;
  /** GC end, ms on the target's performance clock (since its start, like --trace-gc's times). */
  t: number;
  kind: number;
  flags: number;
  duration: number;
  heapUsed: number;
  heapTotal: number;
}

/**
 * How long the observer goes on without a heartbeat from V8 Lens before it removes itself: V8 Lens
 * was killed (no chance to uninstall), or the connection is gone. Well above the heartbeat period,
 * so a busy V8 Lens (parsing a large profile) is not mistaken for a dead one.
 */
export const ORPHAN_AFTER_MS = 10_000;
export const HEARTBEAT_MS = 2_000;

/** The expression V8 Lens sends every HEARTBEAT_MS while attached: "still here". */
export function heartbeatExpression(names: ObserverNames): string {
  const s = JSON.stringify(names.state);
  return `(() => { const state = globalThis[${s}]; if (state) state.lastSeen = performance.now(); return !!state; })()`;
}

/**
 * The expression that installs the observer. It runs with `includeCommandLineAPI` so `require`
 * exists in Node's inspector; `process.getBuiltinModule` is preferred where present. Returns
 * `{ ok: true, since }` (the target's performance.now() when it started watching) or
 * `{ ok: false, error }` by value. The state global is not enumerable, so the
 * app's own scans of globalThis do not see it.
 */
export function installObserverExpression(names: ObserverNames): string {
  const b = JSON.stringify(names.binding);
  const s = JSON.stringify(names.state);
  return `(() => {
  try {
    const g = globalThis;
    if (g[${s}]) return { ok: true, already: true, since: g[${s}].installedAt };
    const load = typeof process.getBuiltinModule === 'function' ? (id) => process.getBuiltinModule(id) : require;
    const { PerformanceObserver } = load('perf_hooks');
    const v8 = load('v8');
    const send = g[${b}];
    if (typeof send !== 'function') return { ok: false, error: 'the binding is missing' };
    const report = (entries) => {
      const h = v8.getHeapStatistics();
      for (const e of entries) {
        const d = e.detail || e;
        send(JSON.stringify({ s: e.startTime, t: e.startTime + e.duration, kind: d.kind, flags: d.flags || 0, duration: e.duration, heapUsed: h.used_heap_size, heapTotal: h.total_heap_size }));
      }
    };
    const observer = new PerformanceObserver((list) => {
      if (g[${s}] !== state) { observer.disconnect(); return; }
      report(list.getEntries());
    });
    // Read before observe(): every collection the window counts began after this.
    const state = { observer, report, installedAt: performance.now(), lastSeen: performance.now(), watchdog: null };
    Object.defineProperty(g, ${s}, { value: state, configurable: true, enumerable: false, writable: true });
    observer.observe({ entryTypes: ['gc'] });
    // No heartbeat for a while: V8 Lens is gone without uninstalling (killed). Leave nothing behind.
    state.watchdog = setInterval(() => {
      if (performance.now() - state.lastSeen <= ${ORPHAN_AFTER_MS}) return;
      clearInterval(state.watchdog);
      try { observer.disconnect(); } catch {}
      if (g[${s}] === state) delete g[${s}];
      delete g[${b}];
    }, 1000);
    if (typeof state.watchdog.unref === 'function') state.watchdog.unref();
    return { ok: true, since: state.installedAt };
  } catch (err) {
    return { ok: false, error: String(err && err.message || err) };
  }
})()`;
}

/**
 * The expression that removes everything the install added: reports what is still queued,
 * disconnects the observer, deletes both globals. Safe to run twice.
 */
export function uninstallObserverExpression(names: ObserverNames): string {
  const b = JSON.stringify(names.binding);
  const s = JSON.stringify(names.state);
  return `(() => {
  const g = globalThis;
  const state = g[${s}];
  let flushed = 0;
  if (state) {
    try { const rest = state.observer.takeRecords(); flushed = rest.length; if (rest.length > 0 && typeof g[${b}] === 'function') state.report(rest); } catch {}
    try { state.observer.disconnect(); } catch {}
    try { clearInterval(state.watchdog); } catch {}
    delete g[${s}];
  }
  delete g[${b}];
  return { ok: true, flushed, left: Object.getOwnPropertyNames(g).filter((n) => n.startsWith(${JSON.stringify(GLOBAL_PREFIX)})) };
})()`;
}

/** Parses one binding payload; null when it is not one of ours. */
export function parseObservedGc(payload: string): ObservedGc | null {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const num = (k: string) => (typeof v[k] === 'number' && Number.isFinite(v[k]) ? (v[k] as number) : null);
  const t = num('t');
  const kind = num('kind');
  const duration = num('duration');
  if (t === null || kind === null || duration === null) return null;
  return { s: num('s'), t, kind, flags: num('flags') ?? 0, duration, heapUsed: num('heapUsed') ?? 0, heapTotal: num('heapTotal') ?? 0 };
}
