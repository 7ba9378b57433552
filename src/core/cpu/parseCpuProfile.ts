import { CpuProfileError } from './cpuProfileError';
import type { CpuProfile } from './cpuProfileFormat';
import type { FlatTree } from './flatTree';
import { orderTree } from './orderTree';
import { parseProfileJson } from './parseProfileJson';
import { readLegacyHead } from './readLegacyHead';
import { readModernNodes } from './readModernNodes';
import { readSamples } from './readSamples';
import { recognizeProfileShape } from './recognizeProfileShape';
import { cutTrailingNumberArrays } from './trailingNumberArrays';

/**
 * Reads a `.cpuprofile` (modern CDP format or the legacy `head`/`timestamps` one) into the normalised
 * `CpuProfile`. Anything unusable throws a `CpuProfileError` with a one-line message naming
 * `sourceName`; oddities that still leave usable data end up in `warnings`.
 */
export function parseCpuProfile(text: string, sourceName: string): CpuProfile {
  const shape = recognizeProfileShape(parseText(text, sourceName));
  if (shape.kind === 'other') throw new CpuProfileError(sourceName, shape.problem);

  const warnings: string[] = [];
  const flat: FlatTree =
    shape.kind === 'modern'
      ? readModernNodes(shape.value['nodes'] as unknown[], sourceName, warnings)
      : readLegacyHead(shape.value['head'] as Record<string, unknown>, sourceName, warnings);
  if (flat.nodes.length === 0) throw new CpuProfileError(sourceName, 'its nodes list is empty.');

  const tree = orderTree(flat, warnings);
  flat.ids.remap(tree.newIndex);
  const timeline = readSamples(shape.value, flat.ids, sourceName, warnings);
  if (timeline.samples.length === 0) warnings.push(`${sourceName} has no samples: the profile recorded no time.`);

  return {
    sourceName,
    format: shape.kind,
    nodes: tree.nodes,
    parents: tree.parents,
    frames: flat.frames,
    nodeFrames: tree.nodeFrames,
    samples: timeline.samples,
    timeDeltasUs: timeline.timeDeltasUs,
    startTimeUs: timeline.startTimeUs,
    endTimeUs: timeline.endTimeUs,
    warnings,
  };
}

/**
 * The parsed JSON, with the trailing sample arrays of a big profile scanned separately (see
 * trailingNumberArrays.ts) and put back as typed arrays. If the rest does not parse, the whole text
 * is parsed again so the error describes the file, not the cut.
 */
function parseText(text: string, sourceName: string): unknown {
  const cut = cutTrailingNumberArrays(text);
  if (!cut) return parseProfileJson(text, sourceName);
  let rest: unknown;
  try {
    rest = JSON.parse(cut.rest);
  } catch {
    return parseProfileJson(text, sourceName);
  }
  if (typeof rest !== 'object' || rest === null || Array.isArray(rest)) return parseProfileJson(text, sourceName);
  const value = rest as Record<string, unknown>;
  if (cut.samples) value['samples'] = cut.samples;
  if (cut.timeDeltas) value['timeDeltas'] = cut.timeDeltas;
  return value;
}
