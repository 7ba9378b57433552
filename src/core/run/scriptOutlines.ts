/**
 * The outlines (scriptOutline.ts) of the scripts a CPU profile has line ticks in, read from their
 * files before the profile is summarized, so line ticks of inlined code can go to their own script.
 * A script is left without an outline, and its lines unchecked, when its url is not a local file
 * (Node's own `node:` modules, eval code), the file is gone, too large, changed since the run
 * started (its lines may no longer be the profiled ones), or not parseable JavaScript.
 */
import { readFile, stat } from 'node:fs/promises';
import type { CpuProfile } from '../cpu/cpuProfileFormat';
import { filePathOf, type OutlineOf } from '../cpu/inlinedLines';
import { outlineScript, type ScriptOutline } from '../cpu/scriptOutline';
import type { IsV8LensScript } from '../cpu/v8LensFrames';

/** Past this, a file is not parsed (a bundle this large is read in seconds, not worth it here). */
const MAX_SOURCE_BYTES = 8 * 1024 * 1024;
/** And at most this much source per run in all. */
const MAX_TOTAL_BYTES = 64 * 1024 * 1024;

/** Outlines already read, by url, shared by a run's profiles (its threads run the same scripts). */
export type OutlineCache = Map<string, Promise<ScriptOutline | null>>;

/** `isV8Lens`: V8 Lens's own scripts (the agent), whose frames are folded away and never need an outline (parsing the agent took ~40 ms of every run). */
export async function scriptOutlinesOf(profile: Pick<CpuProfile, 'nodes'>, cache: OutlineCache, budget: { bytes: number }, changedAfterMs: number | null, isV8Lens: IsV8LensScript | null = null): Promise<OutlineOf> {
  const urls = new Set<string>();
  for (const node of profile.nodes) {
    const url = node.callFrame.url;
    if (node.positionTicks.length > 0 && url !== '' && !(isV8Lens?.(url) ?? false)) urls.add(url);
  }
  const outlines = new Map<string, ScriptOutline | null>();
  for (const url of urls) {
    let pending = cache.get(url);
    if (!pending) {
      pending = readOutline(url, budget, changedAfterMs);
      cache.set(url, pending);
    }
    outlines.set(url, await pending);
  }
  return (url) => outlines.get(url) ?? null;
}

async function readOutline(url: string, budget: { bytes: number }, changedAfterMs: number | null): Promise<ScriptOutline | null> {
  const path = filePathOf(url);
  if (path === null) return null;
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size > MAX_SOURCE_BYTES || budget.bytes + info.size > MAX_TOTAL_BYTES) return null;
    if (changedAfterMs !== null && info.mtimeMs > changedAfterMs) return null;
    budget.bytes += info.size;
    return outlineScript(await readFile(path, 'utf8'), /\.mjs$/i.test(path));
  } catch {
    return null;
  }
}
