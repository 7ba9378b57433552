/**
 * Node command lines as npm scripts write them, and the one flag the lab changes in them (the
 * swept flag: the semi-space by default).
 */
import { splitCommandLine } from './commandLine';

/**
 * `node [flags] script.js [args]` (the only npm scripts a sweep can start directly); anything
 * else (a framework CLI, `&&`, env assignments) is left out of the lab's list.
 */
export function nodeScriptOf(command: string): { nodeArgs: string[]; script: string; args: string[] } | null {
  if (/[|&;<>$`]/.test(command)) return null;
  const words = splitCommandLine(command);
  if (words[0] !== 'node') return null;
  let i = 1;
  const nodeArgs: string[] = [];
  while (i < words.length && words[i]!.startsWith('-')) nodeArgs.push(words[i++]!);
  const script = words[i];
  if (!script || !/\.[cm]?[jt]s$/.test(script)) return null;
  return { nodeArgs, script, args: words.slice(i + 1) };
}


/** Matches `--<flag>` or `--<flag>=…` in either spelling (`-` or `_`); m[1] is the `=…` part. */
function flagPattern(flag: string): RegExp {
  const parts = flag.replace(/^-+/, '').split(/[-_]/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^--${parts.join('[-_]')}(=.*)?$`);
}

/** The args with `--<flag>=<value>` instead of any earlier value of it (either spelling, `=` or a separate word). */
export function withNodeFlag(args: readonly string[], flag: string, value: number): string[] {
  const pattern = flagPattern(flag);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const m = pattern.exec(args[i]!);
    if (!m) out.push(args[i]!);
    else if (m[1] === undefined) i++; // "--max-semi-space-size 64": drop the value too
  }
  return [...out, `--${flag.replace(/^-+/, '')}=${value}`];
}

/** The args with `--max-semi-space-size=<mb>` instead of any earlier value (either spelling). */
export function withSemiSpaceFlag(args: readonly string[], mb: number): string[] {
  return withNodeFlag(args, 'max-semi-space-size', mb);
}

/** `node [flags] app.js …` with `--<flag>=<value>` among node's own flags; null for other commands. */
export function npmScriptWithNodeFlag(command: string, flag: string, value: number): string | null {
  const parsed = nodeScriptOf(command);
  if (!parsed) return null;
  const quote = (w: string) => (/[\s"']/.test(w) ? JSON.stringify(w) : w);
  return ['node', ...withNodeFlag(parsed.nodeArgs, flag, value), parsed.script, ...parsed.args].map(quote).join(' ');
}

/** `node [flags] app.js …` with the semi-space flag set among node's own flags; null for other commands. */
export function npmScriptWithSemiSpace(command: string, mb: number): string | null {
  return npmScriptWithNodeFlag(command, 'max-semi-space-size', mb);
}
