/**
 * Parsers for what a Node binary says about its own options: `node --v8-options` (V8's flags with
 * their types) and `node --help` (Node's own flags). Flag names are kept without the leading `--`
 * and with `_` folded to `-`, the way V8 itself compares them.
 */

export type V8FlagType = 'bool' | 'maybe_bool' | 'int' | 'uint' | 'uint64' | 'size_t' | 'float' | 'string' | string;

export interface V8FlagInfo {
  name: string;
  type: V8FlagType;
  /** The default as V8 prints it (`--no-trace-gc`, `--max-semi-space-size=0`). */
  defaultText: string;
}

export function normalizeFlagName(name: string): string {
  return name.replace(/^-+/, '').replace(/_/g, '-');
}

const V8_FLAG_LINE = /^ {2}--([a-z0-9][a-z0-9_-]*) \(/;
const V8_TYPE_LINE = /^\s+type: (\S+)\s+default: (.*)$/;

export function parseV8Options(text: string): Map<string, V8FlagInfo> {
  const flags = new Map<string, V8FlagInfo>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = V8_FLAG_LINE.exec(lines[i]!);
    if (!m) continue;
    const name = normalizeFlagName(m[1]!);
    // The description may wrap; the type line follows within a few lines.
    let type = 'unknown';
    let defaultText = '';
    for (let j = i + 1; j < Math.min(lines.length, i + 6); j++) {
      const t = V8_TYPE_LINE.exec(lines[j]!);
      if (t) {
        type = t[1]!;
        defaultText = t[2]!.trim();
        break;
      }
      if (V8_FLAG_LINE.test(lines[j]!)) break;
    }
    flags.set(name, { name, type, defaultText });
  }
  return flags;
}

const NODE_HELP_LINE = /^ {2}(?:-[a-zA-Z], )?--([a-z0-9][a-z0-9-]*)/;

/** Node's own flags from `node --help` (the first column of its option table). */
export function parseNodeHelp(text: string): Set<string> {
  const flags = new Set<string>();
  for (const line of text.split('\n')) {
    const m = NODE_HELP_LINE.exec(line);
    if (m) flags.add(m[1]!);
  }
  return flags;
}
