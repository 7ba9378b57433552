/**
 * Why a run, or one of its processes and threads, has no allocations: the reason the report and the
 * CLI give after "not collected", never a guess (a preset that did not ask is not said of a run that
 * asked, as a worker's panel once did).
 */
import type { RunProcess } from './processTable';

/** The run's own reason, when it did not ask for allocations at all. */
export function runAllocMissing(asked: boolean, preset: string | null): string | null {
  if (asked) return null;
  return preset ? `this run's preset (${preset}) does not sample them; the default preset does` : 'this run did not sample them; the default preset does';
}

/** Why this process or thread has none, in a run that asked for allocations. */
export function processAllocMissing(p: Pick<RunProcess, 'record' | 'threadId'>, underLoad: boolean): string {
  const thread = p.threadId !== 0 ? 'thread' : 'process';
  const r = p.record;
  if (r === null) {
    return p.threadId !== 0
      ? "no V8 Lens agent ran in this thread (a worker started with an environment of its own, without V8 Lens's variables)"
      : 'no V8 Lens agent ran in this process';
  }
  if (r.allocations) return 'its heap profile could not be read (see the warnings)';
  const failure = r.errors.find((e) => e.startsWith('allocations:'));
  if (failure) return `its agent could not sample them (${failure.slice('allocations: '.length)})`;
  if (!r.final) {
    return p.threadId !== 0
      ? 'the thread ended before its agent could write them (a worker the app terminated itself, or a killed process)'
      : 'the process did not exit normally, so its agent could not write them';
  }
  if (underLoad) return `the measured window never opened while this ${thread} ran (only the window is sampled under load)`;
  return `its agent wrote none (see the warnings)`;
}
