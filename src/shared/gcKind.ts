/**
 * Which generation a GC type (as V8 prints it, without its " (…)" qualifiers) collects. One place for
 * the rule, used wherever young or full GCs are counted (window counts, the lab, cards, colours), so a
 * new name V8 prints (Node 26's "Incremental Mark-Compact") is known everywhere at once.
 */

/** A young-generation collection: a Scavenge, or Minor Mark-Sweep/-Compact (`--minor-ms`). */
export function isYoungGenerationGc(type: string): boolean {
  return type.startsWith('Scavenge') || type.startsWith('Minor ');
}

/**
 * A full (old-generation) collection: "Mark-Compact", Node 26's "Incremental Mark-Compact" (one that
 * incremental marking finished), Node 18's "Mark-sweep".
 */
export function isFullGc(type: string): boolean {
  return !isYoungGenerationGc(type) && /Mark-(?:Compact|[Ss]weep)\b/.test(type);
}
