/**
 * What `--max-semi-space-size` the target was given, wherever it was given: V8 Lens's own option,
 * a launch configuration's runtimeArgs, an npm script's `node --max-semi-space-size=64 app.js`,
 * NODE_OPTIONS. Node reads NODE_OPTIONS first and its command line after, and V8 keeps the last
 * value of a flag: so the command line wins, and within each the last one.
 */
import type { SessionRecord } from '../../shared/model/session';
import { splitCommandLine } from '../targets/commandLine';

export interface SemiSpaceSources {
  /** V8 Lens's own option (`--semi-space`, the lab's value). */
  option: number | null;
  /** NODE_OPTIONS as the target saw it (V8 Lens's and the inherited ones). */
  nodeOptions: string | null;
  /** Node's own arguments before the script: `process.execArgv` of the app, or the launch's. */
  execArgv: readonly string[];
}

/** MB; null when nothing asked for a size (V8 decides). */
export function semiSpaceAskedMB(sources: SemiSpaceSources): number | null {
  if (sources.option !== null) return sources.option;
  return lastSemiSpaceValue(sources.execArgv) ?? lastSemiSpaceValue(splitCommandLine(sources.nodeOptions ?? ''));
}

const FLAG = /^--max[-_]semi[-_]space[-_]size(?:=(.*))?$/;

/** The last `--max-semi-space-size=N` (or `… N`, or with underscores) among the words; null when none. */
export function lastSemiSpaceValue(words: readonly string[]): number | null {
  let found: number | null = null;
  for (let i = 0; i < words.length; i++) {
    const m = FLAG.exec(words[i]!);
    if (!m) continue;
    const value = Number(m[1] ?? words[++i]);
    if (Number.isFinite(value) && value > 0) found = value;
  }
  return found;
}

/**
 * Node's own arguments of a direct launch: everything before the script (V8 Lens's flags, the
 * user's extra flags, a launch configuration's runtimeArgs); an argument list without the script
 * is taken whole.
 */
export function nodeArgsBefore(argv: readonly string[], script: string): string[] {
  const at = argv.lastIndexOf(script);
  return at < 0 ? [...argv] : argv.slice(0, at);
}

/**
 * A run's asked size from its session.json and, when the process wrote one, its agent record's
 * execArgv (the only place an npm script's own `node --max-semi-space-size=…` shows); null when
 * nothing asked, or for an attached run (its command line was not V8 Lens's to know).
 */
export function semiSpaceAskedOf(session: SessionRecord | null, execArgv: readonly string[] | undefined): number | null {
  if (!session || session.mode === 'attach') return null;
  return semiSpaceAskedMB({
    option: session.flags.semiSpaceMB,
    nodeOptions: session.launch.env['NODE_OPTIONS'] ?? session.flags.inheritedNodeOptions ?? null,
    execArgv: execArgv ?? (session.launch.mode === 'direct' ? nodeArgsBefore(session.launch.argv, session.target.program) : []),
  });
}
