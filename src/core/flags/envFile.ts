/**
 * The preload's settings as a file for Node's `--env-file`: a process the app starts with an
 * environment of its own (`fork(file, { env: { … } })`) drops the V8_LENS_* variables but keeps
 * the command line's options (fork passes process.execArgv on), so Node gives them back from the
 * file, before the preload reads them. Variables already in the environment win (Node's rule), so
 * the target itself and every child that inherited them are unchanged.
 */

/**
 * The file's text, or null when a value cannot be written so that Node reads it back unchanged.
 * Node's parser takes a single-quoted value as it is; a double-quoted one turns `\n` into a line
 * break, so one with a backslash is not written that way; a line break fits neither.
 */
export function envFileText(env: Readonly<Record<string, string>>): string | null {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || /[\r\n]/.test(value)) return null;
    if (!value.includes("'")) lines.push(`${name}='${value}'`);
    else if (!value.includes('"') && !value.includes('\\')) lines.push(`${name}="${value}"`);
    else return null;
  }
  return `${lines.join('\n')}\n`;
}
