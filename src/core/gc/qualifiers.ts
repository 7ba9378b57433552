/**
 * The qualifiers V8 prints after a GC's type, " (interleaved) (reduce)": kept as that text (one
 * entry per distinct text in the event table) and given as a list.
 */

/** The qualifiers of a " (a) (b)" text, one shared array per distinct text (there are a handful). */
const qualifierLists = new Map<string, readonly string[]>();
export function qualifiersOf(text: string): readonly string[] {
  let list = qualifierLists.get(text);
  if (list === undefined) {
    list = Object.freeze(text.slice(2, -1).split(') ('));
    // Bounded: V8 prints a few kinds; anything past that is not worth remembering.
    if (qualifierLists.size < 64) qualifierLists.set(text, list);
  }
  return list;
}

/** The " (a) (b)" text of a list of qualifiers ('' for none). */
export function qualifierTextOf(list: readonly string[]): string {
  return list.length === 0 ? '' : ` (${list.join(') (')})`;
}

/** Whether a qualifiers text (" (a) (b)") holds `name`. */
export function hasQualifier(text: string, name: string): boolean {
  return text.length > 0 && text.includes(`(${name})`);
}
