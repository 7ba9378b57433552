/**
 * Splits a typed command line into words without a shell: spaces separate, "double" or 'single'
 * quotes group, and nothing else ($VARS, globs, pipes) is interpreted.
 */
export function splitCommandLine(text: string): string[] {
  const words: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) words.push(m[1] ?? m[2] ?? m[3]!);
  return words;
}
