/**
 * Where a named function starts, read from its source: for deopts in functions the profile never
 * saw on their own (V8 inlined them everywhere), so the lens can still sit above the function.
 */

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The 1-based line of the closest declaration of `name` at or above `siteLine` (`function name(`,
 * `name = (…) =>`, `name: function`, a method `name(…) {`), or null. Anonymous functions and
 * names that appear in no such form give null: the caller keeps the site's line.
 */
export function findFunctionStart(source: string, name: string, siteLine: number): number | null {
  if (!/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(name)) return null;
  const n = escape(name);
  const declaration = new RegExp(
    [
      `\\bfunction\\s*\\*?\\s*${n}\\s*[(<]`,
      `(^|[^.\\w$])${n}\\s*[:=]\\s*(async\\s+)?(function\\b|\\(|[\\w$]+\\s*=>|<)`,
      `^\\s*(export\\s+)?(default\\s+)?(public\\s+|private\\s+|protected\\s+|static\\s+|async\\s+|get\\s+|set\\s+|\\*\\s*)*${n}\\s*(<[^>]*>)?\\s*\\(`,
    ].join('|'),
    'u',
  );
  const lines = source.split('\n');
  for (let i = Math.min(siteLine, lines.length) - 1; i >= 0; i--) {
    if (declaration.test(lines[i]!)) return i + 1;
  }
  return null;
}
