import { join } from 'node:path';
import type { CapturePaths } from '../flags/launchPlan';

/**
 * Where each artifact of a run lives inside its run folder. The raw artifacts keep the formats other
 * tools read (the `.cpuprofile` opens in Chrome DevTools and speedscope; the V8 logs in V8's tools).
 */
export interface RunLayout extends CapturePaths {
  dir: string;
  session: string;
  summary: string;
  /** V8's `--trace-gc` lines, exactly as printed (separated from the app's own output). */
  gcTrace: string;
  /** Attached runs: the GC events observed over the inspector (JSON lines), instead of gcTrace. */
  gcEvents: string;
  /** The load V8 Lens drove the target with, when profiling under load. */
  load: string;
  /** `--cpu-prof-dir`: one `.cpuprofile` per thread (Node names them CPU.<date>.<time>.<pid>.<tid>.<seq>). */
  cpuDir: string;
  /** `--logfile` folder: V8 writes one `isolate-<address>-<pid>-v8.log` per isolate here. */
  v8LogDir: string;
  v8LogFile: string;
  /**
   * `--redirect-code-traces-to` on the command line: keeps `[bailout …]` lines out of the app's
   * output. With a CPU profile each process and thread writes its own `code-<pid>-<threadId>.asm`
   * beside it (the preload redirects it); this one only gets what an isolate traced before that.
   */
  codeTraces: string;
  /** The preload agent's per-process records (`<pid>.json`). */
  agentDir: string;
  /** Each thread's own CPU time, read from /proc while the target ran (launcher/threadPoller.ts); Linux only. */
  threads: string;
  /**
   * The survivors pass (`--survivors`): the same target run once more with the allocation sampler
   * keeping survivors only, a run folder of its own inside this one (capture/survivorsPass.ts).
   */
  survivorsDir: string;
}

export function runLayout(dir: string): RunLayout {
  return {
    dir,
    session: join(dir, 'session.json'),
    summary: join(dir, 'summary.json'),
    gcTrace: join(dir, 'gc-trace.log'),
    gcEvents: join(dir, 'gc-events.jsonl'),
    load: join(dir, 'load.json'),
    cpuDir: join(dir, 'cpu'),
    v8LogDir: join(dir, 'v8'),
    v8LogFile: join(dir, 'v8', 'v8.log'),
    codeTraces: join(dir, 'v8', 'code-startup.asm'),
    agentDir: join(dir, 'agent'),
    agentEnvFile: join(dir, 'agent.env'),
    threads: join(dir, 'threads.json'),
    heapDir: join(dir, 'heap'),
    survivorsDir: join(dir, 'survivors'),
  };
}
