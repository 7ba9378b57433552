/**
 * The agent of a process's main thread reaching the agents in its worker threads. A pool's worker
 * spends its life blocked in `Atomics.wait` (piscina) or in long synchronous tasks, so its own timers
 * never fire: the agent in it would never see the measured window's marks. And a worker that the
 * process ends is terminated without its exit event (measured on Node 20-26: `process.exit()` in
 * the main thread, or `worker.terminate()`), so the agent in it would never write its in-process CPU
 * profile and its allocations. The inspector reaches it anyway: the main thread's session attaches
 * to each worker (the NodeWorker domain) and has it evaluate the agent's own hook there; V8 runs
 * inspector messages as interrupts, also while the thread waits in `Atomics.wait`.
 *
 * Nothing of this is loaded or connected in a process that has started no worker thread.
 */
import type { Session } from 'node:inspector';

/** The hook each worker's agent leaves on its global object (a symbol: no name the app could meet). */
export const WORKER_HOOK_KEY = 'v8-lens.agent';

export interface WorkerHook {
  /** Looks for the measured window's marks now (the worker's own timers may never run). */
  poll(): void;
  /** Writes what the worker's agent holds (CPU profile, allocations, the final record) while it still can. */
  finish(): void;
}

export type WorkerAction = keyof WorkerHook;

/** Leaves `hook` where the main thread's relay finds it (in a worker thread). */
export function exposeWorkerHook(hook: WorkerHook): void {
  Object.defineProperty(globalThis, Symbol.for(WORKER_HOOK_KEY), { value: hook, enumerable: false, configurable: true, writable: false });
}

export interface WorkerRelay {
  /** Asks every live worker thread to run `action`; the answers come back on the event loop. */
  send(action: WorkerAction): void;
  /**
   * The same, then waits on this thread until each worker has answered or `timeoutMs` has passed:
   * for the exit path, after which the process terminates its workers.
   */
  sendAndWait(action: WorkerAction, timeoutMs: number): { asked: number; answered: number };
}

/**
 * A relay for this (main) thread. It connects only when first used in a process that has loaded
 * `worker_threads` (Node lists its loaded modules), so a single-threaded app never pays for it.
 */
export function createWorkerRelay(onError: (err: unknown) => void): WorkerRelay {
  let session: Session | null = null;
  const workers = new Set<string>();
  const waiting = new Set<number>();
  let nextId = 1;

  const connect = (): Session | null => {
    if (session) return session;
    if (!workerThreadsLoaded()) return null;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const inspector = require('node:inspector') as typeof import('node:inspector');
    const s = new inspector.Session();
    s.connect();
    s.on('NodeWorker.attachedToWorker', (m: { params: { sessionId: string } }) => workers.add(m.params.sessionId));
    s.on('NodeWorker.detachedFromWorker', (m: { params: { sessionId: string } }) => workers.delete(m.params.sessionId));
    s.on('NodeWorker.receivedMessageFromWorker', (m: { params: { message: string } }) => {
      try {
        const answer = JSON.parse(m.params.message) as { id?: unknown };
        if (typeof answer.id === 'number') waiting.delete(answer.id);
      } catch {
        // not ours
      }
    });
    let failure: unknown = null;
    // The workers alive now are attached (and reported) within this call; later ones as they start.
    s.post('NodeWorker.enable', { waitForDebuggerOnStart: false }, (err) => (failure = err));
    if (failure) {
      s.disconnect();
      throw failure;
    }
    session = s;
    return s;
  };

  const send = (action: WorkerAction): number[] => {
    const s = connect();
    if (!s) return [];
    const expression = `globalThis[Symbol.for(${JSON.stringify(WORKER_HOOK_KEY)})]?.${action}()`;
    const ids: number[] = [];
    for (const sessionId of workers) {
      const id = nextId++;
      const message = JSON.stringify({ id, method: 'Runtime.evaluate', params: { expression, silent: true, returnByValue: true } });
      let failure: unknown = null;
      s.post('NodeWorker.sendMessageToWorker', { sessionId, message }, (err) => (failure = err));
      // A worker that ended since it was attached refuses the message: nothing to wait for.
      if (failure) continue;
      waiting.add(id);
      ids.push(id);
    }
    return ids;
  };

  return {
    send(action) {
      try {
        for (const id of send(action)) waiting.delete(id);
      } catch (err) {
        onError(err);
      }
    },
    sendAndWait(action, timeoutMs) {
      try {
        const ids = send(action);
        const deadline = Date.now() + timeoutMs;
        const nap = new Int32Array(new SharedArrayBuffer(4));
        // The answers are delivered by interrupts, which V8 also handles inside Atomics.wait.
        while (ids.some((id) => waiting.has(id)) && Date.now() < deadline) Atomics.wait(nap, 0, 0, 5);
        const answered = ids.filter((id) => !waiting.has(id)).length;
        for (const id of ids) waiting.delete(id);
        return { asked: ids.length, answered };
      } catch (err) {
        onError(err);
        return { asked: 0, answered: 0 };
      }
    },
  };
}

/** Whether this thread has loaded worker_threads (any worker it started has). */
function workerThreadsLoaded(): boolean {
  const loaded = (process as unknown as { moduleLoadList?: string[] }).moduleLoadList;
  return !Array.isArray(loaded) || loaded.includes('NativeModule worker_threads');
}
