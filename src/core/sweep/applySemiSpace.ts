/**
 * "Apply" of the lab: the text of launch.json or package.json with the chosen value of the swept
 * flag (`--max-semi-space-size` by default), edited as JSONC so comments and formatting stay as
 * the user wrote them: only what changes is touched.
 */
import { applyEdits, findNodeAtLocation, parseTree, type Edit, type Node } from 'jsonc-parser';
import { npmScriptWithNodeFlag } from '../targets/nodeCommand';
import { UserError } from '../util/errors';

/*
 * Every change is a minimal edit of the text: one string replaced, or one element or property on a
 * line of its own (inline only in a one-line array or object), and the flag's older words taken
 * out. jsonc-parser's `modify` with formatting reformatted the lines around what it inserted (a
 * one-line `skipFiles` array beside it came out spread over three lines).
 */

/** launch.json with the configuration's runtimeArgs carrying the size. */
export function launchJsonWithSemiSpace(text: string, configName: string, mb: number): string {
  return launchJsonWithFlag(text, configName, 'max-semi-space-size', mb);
}

/** package.json with the npm script's `node` carrying the size. */
export function packageJsonWithSemiSpace(text: string, scriptName: string, mb: number): string {
  return packageJsonWithFlag(text, scriptName, 'max-semi-space-size', mb);
}

/** launch.json with the configuration's runtimeArgs carrying `--<flag>=<value>` (an earlier value replaced). */
export function launchJsonWithFlag(text: string, configName: string, flag: string, value: number): string {
  const root = parseTree(text);
  const configs = root ? findNodeAtLocation(root, ['configurations']) : undefined;
  const config = configs?.type === 'array' ? configs.children?.find((c) => c.type === 'object' && propertyValue(c, 'name')?.value === configName) : undefined;
  if (!config) throw new UserError(`launch.json has no configuration named '${configName}' any more`);
  const word = `--${flag.replace(/^-+/, '')}=${value}`;
  const args = propertyValue(config, 'runtimeArgs');
  if (args === undefined) return applyEdits(text, [insertProperty(text, config, 'runtimeArgs', `[${JSON.stringify(word)}]`)]);
  if (args.type !== 'array') throw new UserError(`runtimeArgs of '${configName}' in launch.json is not a list`);
  return applyEdits(text, flagEdits(text, args, flag, word));
}

/** package.json with the npm script's `node` carrying `--<flag>=<value>`. */
export function packageJsonWithFlag(text: string, scriptName: string, flag: string, value: number): string {
  const root = parseTree(text);
  const script = root ? findNodeAtLocation(root, ['scripts', scriptName]) : undefined;
  if (script?.type !== 'string') throw new UserError(`package.json has no script '${scriptName}' any more`);
  const next = npmScriptWithNodeFlag(script.value as string, flag, value);
  if (next === null) throw new UserError(`the script '${scriptName}' does not start node directly: add --${flag}=${value} to NODE_OPTIONS where it runs`);
  return applyEdits(text, [{ offset: script.offset, length: script.length, content: JSON.stringify(next) }]);
}

function propertyValue(object: Node, key: string): Node | undefined {
  const property = object.children?.find((p) => p.type === 'property' && p.children?.[0]?.value === key);
  return property?.children?.[1];
}

/** Matches `--<flag>` or `--<flag>=…` in either spelling (`-` or `_`). */
function flagPattern(flag: string): RegExp {
  const parts = flag.replace(/^-+/, '').split(/[-_]/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^--${parts.join('[-_]')}(=.*)?$`);
}

/**
 * The array's elements for `word`: the last element that sets the flag becomes `word` in place (the
 * earlier ones, and a separate value after `--flag 64`, are taken out); with none, `word` is added.
 */
function flagEdits(text: string, array: Node, flag: string, word: string): Edit[] {
  const items = array.children ?? [];
  const pattern = flagPattern(flag);
  const setting: number[] = [];
  items.forEach((item, i) => {
    if (item.type === 'string' && pattern.test(item.value as string)) setting.push(i);
  });
  if (setting.length === 0) return [appendElement(text, array, JSON.stringify(word))];
  const keep = setting[setting.length - 1]!;
  const drop = new Set<number>();
  for (const i of setting) {
    const m = pattern.exec(items[i]!.value as string)!;
    // "--max-semi-space-size", "32": the value is the next element.
    if (m[1] === undefined && i + 1 < items.length) drop.add(i + 1);
    if (i !== keep) drop.add(i);
  }
  drop.delete(keep);
  const edits: Edit[] = [{ offset: items[keep]!.offset, length: items[keep]!.length, content: JSON.stringify(word) }];
  // Runs of dropped elements are cut with the comma before them (or after, at the start).
  for (const i of [...drop].sort((a, b) => a - b)) {
    const item = items[i]!;
    if (i > 0 && !drop.has(i - 1) && i - 1 !== keep) edits.push(cut(items[i - 1]!.offset + items[i - 1]!.length, item.offset + item.length));
    else if (i > 0) edits.push(cut(items[i - 1]!.offset + items[i - 1]!.length, item.offset + item.length));
    else edits.push(cut(item.offset, items[i + 1] ? items[i + 1]!.offset : item.offset + item.length));
  }
  return edits;
}

const cut = (from: number, to: number): Edit => ({ offset: from, length: to - from, content: '' });

/**
 * `content` into the array without touching a line it has: on a line of its own before the last
 * element when the elements are one a line, else after the last element on its line.
 */
function appendElement(text: string, array: Node, content: string): Edit {
  const items = array.children ?? [];
  const last = items[items.length - 1];
  if (!last) return { offset: array.offset + 1, length: 0, content };
  const indent = lineIndentBefore(text, last.offset);
  return indent === null ? { offset: last.offset + last.length, length: 0, content: `, ${content}` } : { offset: last.offset, length: 0, content: `${content},${eolOf(text)}${indent}` };
}

/** `"key": value` into the object the same way: a line of its own before its last property, or inline in a one-line object. */
function insertProperty(text: string, object: Node, key: string, value: string): Edit {
  const properties = object.children ?? [];
  const last = properties[properties.length - 1];
  const entry = `${JSON.stringify(key)}: ${value}`;
  if (!last) return { offset: object.offset + 1, length: 0, content: ` ${entry} ` };
  const indent = lineIndentBefore(text, last.offset);
  return indent === null ? { offset: last.offset + last.length, length: 0, content: `, ${entry}` } : { offset: last.offset, length: 0, content: `${entry},${eolOf(text)}${indent}` };
}

/** The whitespace a line starts with when `offset` is its first non-blank character; null when something precedes it on its line. */
function lineIndentBefore(text: string, offset: number): string | null {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  return /^[ \t]*$/.test(before) ? before : null;
}

function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}
