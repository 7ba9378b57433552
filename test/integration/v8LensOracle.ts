/**
 * V8 Lens's own time in a profile, worked out from the raw `.cpuprofile` V8 wrote, independently of
 * src/core: every node whose frame, or an ancestor's, is in the preload's script, and the time of the
 * samples taken there (each sample lasts until the next; the last until endTime). What the run's
 * `cpu.leftOut` and the pprof export are held to.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { SessionRecord } from '../../src/shared/model/session';

interface RawProfile {
  nodes: { id: number; callFrame: { url: string; functionName: string }; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileAccount {
  /** V8 Lens's samples and their time, ms. */
  v8LensSamples: number;
  v8LensMs: number;
  /** Everything the samples cover (first sample to the end), ms, and the stretch before the first sample. */
  coveredMs: number;
  beforeFirstMs: number;
  /** endTime − startTime, ms. */
  wallMs: number;
  samples: number;
}

/** The preload the run was launched with: the `--require` on its command line. */
export function preloadOf(session: SessionRecord): string {
  const argv = session.launch.argv;
  const at = argv.lastIndexOf('--require');
  if (at < 0) throw new Error(`no --require in the run's command line: ${argv.join(' ')}`);
  return argv[at + 1]!;
}

export function accountOf(profileFile: string, preloadPath: string): ProfileAccount {
  const raw = JSON.parse(readFileSync(profileFile, 'utf8')) as RawProfile;
  const url = pathToFileURL(preloadPath).href;
  const byId = new Map(raw.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of raw.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const ours = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frameUrl = byId.get(at)!.callFrame.url;
      if (frameUrl === url || frameUrl === preloadPath) return true;
    }
    return false;
  };
  let t = raw.startTime;
  const times = raw.timeDeltas.map((d) => (t += d));
  let v8LensUs = 0;
  let v8LensSamples = 0;
  for (let i = 0; i < raw.samples.length; i++) {
    const weight = i + 1 < times.length ? Math.max(0, times[i + 1]! - times[i]!) : Math.max(0, raw.endTime - times[i]!);
    if (ours(raw.samples[i]!)) {
      v8LensUs += weight;
      v8LensSamples++;
    }
  }
  const first = times[0] ?? raw.startTime;
  const last = times[times.length - 1] ?? raw.startTime;
  return {
    v8LensSamples,
    v8LensMs: v8LensUs / 1000,
    coveredMs: (Math.max(raw.endTime, last) - first) / 1000,
    beforeFirstMs: (first - raw.startTime) / 1000,
    wallMs: (raw.endTime - raw.startTime) / 1000,
    samples: raw.samples.length,
  };
}
