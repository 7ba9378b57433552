/**
 * Each CPU profile of a run, read and parsed once per report: its flame tree, its summary figures
 * and what it knows about its scripts (which completes the same isolate's heap profile). Parsing is
 * most of a report's cost, and the flame graph, the process views and the allocation flame graph
 * all need the same profile.
 */
import { basename } from 'node:path';
import type { FlameNode } from '../../shared/model/reportModel';
import type { CpuSummary } from '../../shared/model/summary';
import { buildCpuModel, scriptFramesOf } from '../cpu/cpuModel';
import { summarizeCpuModel } from '../cpu/cpuSummary';
import { parseCpuProfileBytes } from '../cpu/parseCpuProfile';
import type { IsV8LensScript } from '../cpu/v8LensFrames';
import type { ScriptFrames } from '../heap/resolvePositions';
import { RUN_FILE_LIMITS, readRunBytes, runPath } from '../run/runFiles';
import type { RunLayout } from '../run/runLayout';
import { buildFlameTree } from './flameTree';
import { buildTimeProfile } from './timeProfile';
import type { TimeProfile } from '../../shared/model/timeProfile';

export interface ProfileViews {
  flame: FlameNode | null;
  cpu: Omit<CpuSummary, 'profiles'>;
  frames: ScriptFrames;
  /** In time order, not yet lined up with the GC trace (reportModel.ts does that). */
  time: TimeProfile;
  /** The first sample on the monotonic clock, µs. */
  firstSampleUs: number;
}

/** Views by profile file name; a profile that cannot be read rejects with its reason (once). */
export class RunProfileViews {
  private readonly byName = new Map<string, Promise<ProfileViews>>();

  constructor(
    private readonly layout: RunLayout,
    private readonly warnings: string[],
    /** V8 Lens's own scripts in the run (its preload): folded into one `(V8 Lens)` frame. */
    private readonly isV8LensScript: IsV8LensScript | null = null,
  ) {}

  /** A profile from the run's cpu/ folder only (see runFiles.ts). */
  of(name: string): Promise<ProfileViews> {
    let views = this.byName.get(name);
    if (!views) {
      views = this.read(name);
      this.byName.set(name, views);
    }
    return views;
  }

  private async read(name: string): Promise<ProfileViews> {
    const bytes = await readRunBytes(this.layout.dir, runPath(this.layout.cpuDir, name), RUN_FILE_LIMITS.cpuProfile);
    const profile = parseCpuProfileBytes(bytes, basename(name));
    const model = buildCpuModel(profile, { isV8LensScript: this.isV8LensScript });
    return {
      flame: buildFlameTree(model, this.warnings),
      cpu: summarizeCpuModel(model, { profileFile: name }),
      // From the file as V8 wrote it: the preload's script ids name the heap profile's frames to prune.
      frames: scriptFramesOf(profile),
      time: buildTimeProfile(model),
      firstSampleUs: model.firstSampleUs,
    };
  }
}
