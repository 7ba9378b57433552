import { constants, isAscii } from 'node:buffer';
import { CpuProfileError } from './cpuProfileError';
import type { CpuProfile } from './cpuProfileFormat';
import type { FlatTree } from './flatTree';
import { orderTree } from './orderTree';
import { parseProfileJson } from './parseProfileJson';
import { readLegacyHead } from './readLegacyHead';
import { readModernNodes } from './readModernNodes';
import { readSamples } from './readSamples';
import { recognizeProfileShape } from './recognizeProfileShape';
import { scanV8Nodes, scanV8NodesInBytes, type ScannedNodes } from './scanV8Nodes';
import { cutTrailingNumberArrays, cutTrailingNumberArraysInBytes, type TrailingNumberArrays } from './trailingNumberArrays';
import { jsonBudgetProblem, type JsonLimits } from '../util/jsonBudget';
import { samplingGapWarning, samplingGaps } from './samplingGaps';

/**
 * A `.cpuprofile` is parsed from one string, and V8 holds at most this many characters in one
 * (512 MB on 64-bit): a larger file is refused before it is read, with this reason.
 */
export const CPU_PROFILE_READ_LIMIT = { maxBytes: constants.MAX_STRING_LENGTH, why: 'the longest text V8 can hold in one string' } as const;

/**
 * What a `.cpuprofile` may make `JSON.parse` build, checked before it runs (util/jsonBudget.ts): a
 * long profile of a big service is ~100k nodes (~500k objects and arrays) and a few million
 * samples; the nested legacy format nests two levels per stack frame.
 */
export const CPU_PROFILE_JSON_LIMITS: JsonLimits = { containers: 8_000_000, values: 100_000_000, depth: 250_000 };

/** The text, when JSON.parse may build it; else a CpuProfileError saying what it holds too much of. */
function withinBudget(text: string, sourceName: string): string {
  const over = jsonBudgetProblem(text, CPU_PROFILE_JSON_LIMITS);
  if (over !== null) throw new CpuProfileError(sourceName, `${over}, past what V8 Lens reads from a profile.`);
  return text;
}

/**
 * Reads a `.cpuprofile` (modern CDP format or the legacy `head`/`timestamps` one) into the normalised
 * `CpuProfile`. Anything unusable throws a `CpuProfileError` with a one-line message naming
 * `sourceName`; oddities that still leave usable data end up in `warnings`.
 */
export function parseCpuProfile(text: string, sourceName: string): CpuProfile {
  const warnings: string[] = [];
  return parsed(readBigV8Profile(text, sourceName, warnings), () => text, sourceName, warnings);
}

/**
 * The same from the file's bytes. A file all ASCII, as V8 writes them, is read where it is, its big
 * arrays and nodes straight from the bytes: no text of tens of megabytes is made of it, decoded and
 * encoded back (a third of the time of a 50 MB profile's summary). Any other is decoded and read as
 * text.
 */
export function parseCpuProfileBytes(bytes: Buffer, sourceName: string): CpuProfile {
  if (!isAscii(bytes)) return parseCpuProfile(bytes.toString('utf8'), sourceName);
  const warnings: string[] = [];
  return parsed(readBigV8ProfileBytes(bytes, sourceName, warnings), () => bytes.toString('latin1'), sourceName, warnings);
}

/** The profile, from the fast path's value or else from the whole text. */
function parsed(fast: { value: Record<string, unknown>; flat?: FlatTree } | null, textOf: () => string, sourceName: string, warnings: string[]): CpuProfile {
  const shape = fast ? ({ kind: 'modern', value: fast.value } as const) : recognizeProfileShape(parseProfileJson(withinBudget(textOf(), sourceName), sourceName));
  if (shape.kind === 'other') throw new CpuProfileError(sourceName, shape.problem);

  const flat: FlatTree =
    fast?.flat ??
    (shape.kind === 'modern'
      ? readModernNodes(shape.value['nodes'] as unknown[], sourceName, warnings)
      : readLegacyHead(shape.value['head'] as Record<string, unknown>, sourceName, warnings));
  if (flat.nodes.length === 0) throw new CpuProfileError(sourceName, 'its nodes list is empty.');

  const tree = orderTree(flat, warnings);
  flat.ids.remap(tree.newIndex);
  const timeline = readSamples(shape.value, flat.ids, sourceName, warnings);
  if (timeline.samples.length === 0) warnings.push(`it has no samples: the profile recorded no time.`);

  const profile: CpuProfile = {
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
  // Time with no sample at all (a saturated machine) is said, since every time here counts samples.
  const gaps = samplingGapWarning(samplingGaps(profile));
  if (gaps) warnings.push(gaps);
  return profile;
}

/**
 * The fast paths for big files as V8 writes them: the trailing sample arrays scanned into typed
 * arrays (trailingNumberArrays.ts), then the nodes read from the bytes (scanV8Nodes.ts), or failing
 * that, `JSON.parse` of what is left. Null when the file is not laid out that way, or is damaged: the
 * caller then parses the whole text, so errors always describe the file as a whole.
 */
function readBigV8Profile(
  text: string,
  sourceName: string,
  warnings: string[],
): { value: Record<string, unknown>; flat?: FlatTree } | null {
  const cut = cutTrailingNumberArrays(text);
  if (!cut) return null;
  return withArrays(cut, scanV8Nodes(text, cut.restEnd, sourceName, warnings), () => cut.rest);
}

/** The same on an ASCII file's bytes. */
function readBigV8ProfileBytes(
  bytes: Buffer,
  sourceName: string,
  warnings: string[],
): { value: Record<string, unknown>; flat?: FlatTree } | null {
  const cut = cutTrailingNumberArraysInBytes(bytes);
  if (!cut) return null;
  return withArrays(cut, scanV8NodesInBytes(bytes, cut.restEnd, sourceName, warnings), () => `${bytes.toString('latin1', 0, cut.restEnd)}}`);
}

/** The profile's members: the scanned nodes', or else the rest of the text parsed; with the cut arrays. */
function withArrays(
  cut: Omit<TrailingNumberArrays, 'rest'>,
  scanned: ScannedNodes | null,
  restOf: () => string,
): { value: Record<string, unknown>; flat?: FlatTree } | null {
  let value: Record<string, unknown>;
  let flat: FlatTree | undefined;
  if (scanned) {
    value = scanned.members;
    flat = scanned.flat;
  } else {
    const restText = restOf();
    let rest: unknown;
    // Past the budget, the whole text is checked again on the ordinary path, which refuses it.
    if (jsonBudgetProblem(restText, CPU_PROFILE_JSON_LIMITS) !== null) return null;
    try {
      rest = JSON.parse(restText);
    } catch {
      return null;
    }
    if (recognizeProfileShape(rest).kind !== 'modern') return null;
    value = rest as Record<string, unknown>;
  }
  if (cut.samples) value['samples'] = cut.samples;
  if (cut.timeDeltas) value['timeDeltas'] = cut.timeDeltas;
  return { value, ...(flat ? { flat } : {}) };
}
