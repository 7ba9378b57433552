// Looks up the plain-language explanation of a V8 deopt reason (the texts are in deoptReasonTable.ts).
import {
  DEOPT_REASONS,
  FEEDBACK_OPERATION_PLACEHOLDER,
  FEEDBACK_OPERATIONS,
  type DeoptReasonEntry,
} from './deoptReasonTable';

export interface DeoptReasonInfo {
  /** Short label for a CodeLens / after-line text, lower case, ≤ 28 chars: "wrong map", "not a Smi", "insufficient feedback", "OSR", ... */
  short: string;
  /** One or two plain sentences: what happened, in words a Node developer understands (no V8 internals jargon without explaining it). */
  explanation: string;
  /** What usually fixes it, one or two sentences, concrete JS advice. */
  fix: string;
  /** Usually harmless (warm-up "Insufficient type feedback…", OSR entry/exit, ...): look elsewhere first. */
  harmless: boolean;
  /** True when the reason was found in the table; false for the generic fallback. */
  known: boolean;
}

export const MAX_SHORT_LENGTH = 28;
const MAX_QUOTED_REASON = 150;

const GENERIC_FIX =
  'Check which types and object shapes reach this line and keep them consistent (same types, same property order). A single deopt is cheap; worry only if it repeats.';

/** Lower case, single spaces, without a leading "reason:", surrounding quotes or a trailing period. */
function normalize(reason: string): string {
  return reason
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/^reason: ?/, '')
    .replace(/^["'`]+|["'`]+$/g, '')
    .replace(/[. ]+$/, '')
    .trim();
}

/** Letters and digits only: "WrongMap", "wrong map" and "wrong-map" compare equal. */
const compact = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

const exact = new Map<string, DeoptReasonEntry>();
const compacted = new Map<string, DeoptReasonEntry>();
const prefixes: { prefix: string; compact: string; entry: DeoptReasonEntry }[] = [];
for (const entry of DEOPT_REASONS) {
  for (const m of entry.match) {
    const key = normalize(m);
    if (!exact.has(key)) exact.set(key, entry);
    const c = compact(key);
    if (c !== '' && !compacted.has(c)) compacted.set(c, entry);
  }
  for (const p of entry.prefix ?? []) {
    prefixes.push({ prefix: p.toLowerCase(), compact: compact(p), entry });
  }
}
prefixes.sort((a, b) => b.prefix.length - a.prefix.length);

const feedbackOperations = Object.entries(FEEDBACK_OPERATIONS)
  .map(([words, phrase]) => ({ key: compact(words), phrase }))
  .sort((a, b) => b.key.length - a.key.length);
const FEEDBACK_PREFIX = compact('insufficient type feedback for');

function lookup(norm: string): DeoptReasonEntry | undefined {
  const hit = exact.get(norm);
  if (hit) return hit;
  const c = compact(norm);
  if (c !== '') {
    const byCompact = compacted.get(c);
    if (byCompact) return byCompact;
  }
  for (const p of prefixes) if (norm.startsWith(p.prefix)) return p.entry;
  for (const p of prefixes) if (p.compact.length >= 4 && c.startsWith(p.compact)) return p.entry;
  return undefined;
}

/** "deopt-lazy", "dependency-change", "lazy", ...: the code was invalidated from elsewhere. */
function isLazyKind(kind: unknown): boolean {
  return typeof kind === 'string' && /lazy|dependenc/i.test(kind);
}

/** What V8 writes when it did not name the cause. */
const UNRECORDED = new Set(['', '(unknown)', 'unknown', '<unknown>']);

const GENERIC_ENTRY: DeoptReasonEntry = {
  match: [],
  short: 'deopt',
  explanation: 'V8 threw away optimized code here.',
  fix: GENERIC_FIX,
  harmless: false,
};
const LAZY_ENTRY = lookup('code dependencies') ?? GENERIC_ENTRY;
const UNKNOWN_ENTRY = lookup('(unknown)') ?? GENERIC_ENTRY;

function fromEntry(entry: DeoptReasonEntry, known: boolean): DeoptReasonInfo {
  return { short: entry.short, explanation: entry.explanation, fix: entry.fix, harmless: entry.harmless, known };
}

/** "Insufficient type feedback for generic named access" → "…this property access (obj.name)…". */
function withFeedbackOperation(info: DeoptReasonInfo, norm: string): DeoptReasonInfo {
  const c = compact(norm);
  if (!c.startsWith(FEEDBACK_PREFIX) || !info.explanation.includes(FEEDBACK_OPERATION_PLACEHOLDER)) return info;
  const rest = c.slice(FEEDBACK_PREFIX.length);
  const op = feedbackOperations.find((o) => o.key !== '' && rest.includes(o.key));
  if (!op) return info;
  return { ...info, explanation: info.explanation.replace(FEEDBACK_OPERATION_PLACEHOLDER, op.phrase) };
}

function shortOf(norm: string): string {
  if (norm.length <= MAX_SHORT_LENGTH) return norm;
  return `${norm.slice(0, MAX_SHORT_LENGTH - 1).trimEnd()}…`;
}

function quoted(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length <= MAX_QUOTED_REASON ? t : `${t.slice(0, MAX_QUOTED_REASON - 1).trimEnd()}…`;
}

function explain(reason: unknown, kind: unknown): DeoptReasonInfo {
  const text = typeof reason === 'string' ? reason : reason == null ? '' : String(reason);
  const norm = normalize(text);
  const lazy = isLazyKind(kind);
  if (UNRECORDED.has(norm)) return fromEntry(lazy ? LAZY_ENTRY : UNKNOWN_ENTRY, true);
  const entry = lookup(norm);
  if (entry) return withFeedbackOperation(fromEntry(entry, true), norm);
  if (lazy) return { ...fromEntry(LAZY_ENTRY, false), short: shortOf(norm) };
  return {
    short: shortOf(norm),
    explanation: `V8 threw away optimized code here; the reason is V8's own words: "${quoted(text)}".`,
    fix: GENERIC_FIX,
    harmless: false,
    known: false,
  };
}

/** Never throws. `reason` is V8's text verbatim (e.g. "wrong map", "Insufficient type feedback for generic named access", "not a Smi", "(unknown)"); `kind` is V8's deopt kind ("deopt-eager", "deopt-soft", "deopt-lazy", "dependency-change", "bailout-soft", ... an open set). */
export function explainDeoptReason(reason: string, kind?: string): DeoptReasonInfo {
  try {
    return explain(reason, kind);
  } catch {
    return fromEntry(GENERIC_ENTRY, false);
  }
}
