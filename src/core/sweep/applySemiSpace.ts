/**
 * "Apply" of the lab: the text of launch.json or package.json with the chosen value of the swept
 * flag (`--max-semi-space-size` by default), edited as JSONC so comments and formatting stay as
 * the user wrote them.
 */
import { applyEdits, modify, parse, type FormattingOptions } from 'jsonc-parser';
import { npmScriptWithNodeFlag, withNodeFlag } from '../targets/nodeCommand';
import { UserError } from '../util/errors';

const FORMAT: FormattingOptions = { insertSpaces: true, tabSize: 2, eol: '\n' };

function formatOf(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return { ...FORMAT, insertSpaces: !indent.startsWith('\t'), tabSize: indent.startsWith('\t') ? 1 : indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

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
  const json = parse(text) as { configurations?: Array<{ name?: string; runtimeArgs?: string[] }> } | undefined;
  const index = json?.configurations?.findIndex((c) => c.name === configName) ?? -1;
  if (index < 0) throw new UserError(`launch.json has no configuration named '${configName}' any more`);
  const current = json!.configurations![index]!.runtimeArgs ?? [];
  const edits = modify(text, ['configurations', index, 'runtimeArgs'], withNodeFlag(current, flag, value), { formattingOptions: formatOf(text) });
  return applyEdits(text, edits);
}

/** package.json with the npm script's `node` carrying `--<flag>=<value>`. */
export function packageJsonWithFlag(text: string, scriptName: string, flag: string, value: number): string {
  const json = parse(text) as { scripts?: Record<string, string> } | undefined;
  const command = json?.scripts?.[scriptName];
  if (typeof command !== 'string') throw new UserError(`package.json has no script '${scriptName}' any more`);
  const next = npmScriptWithNodeFlag(command, flag, value);
  if (next === null) throw new UserError(`the script '${scriptName}' does not start node directly: add --${flag}=${value} to NODE_OPTIONS where it runs`);
  return applyEdits(text, modify(text, ['scripts', scriptName], next, { formattingOptions: formatOf(text) }));
}
