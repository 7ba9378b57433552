/**
 * Which thread the agent runs in, without loading `worker_threads` into a main thread: that module
 * and what it pulls in are about 300 KB of the app's heap before its first line runs, enough to move
 * its first scavenges and, with them, V8's pretenuring decisions (the lab saw its scavenges per 1k
 * requests double under the old agent). A worker thread has loaded it already to start, so asking
 * it there costs nothing; Node lists the modules it loaded in `process.moduleLoadList`.
 */
export interface CurrentThread {
  isMainThread: boolean;
  /** worker_threads' threadId: 0 on the main thread. */
  threadId: number;
}

export function currentThread(): CurrentThread {
  const loaded = (process as unknown as { moduleLoadList?: string[] }).moduleLoadList;
  if (Array.isArray(loaded) && !loaded.includes('NativeModule worker_threads') && !loaded.includes('NativeModule internal/process/worker_thread_only')) {
    return { isMainThread: true, threadId: 0 };
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { isMainThread, threadId } = require('node:worker_threads') as typeof import('node:worker_threads');
  return { isMainThread, threadId };
}
