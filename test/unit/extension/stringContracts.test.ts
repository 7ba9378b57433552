/**
 * The code's side of the string contracts: src/extension spells no `v8Lens` id outside
 * contractIds.ts, runs and attaches its own commands only through contract.ts's typed helpers, and
 * uses every id contractIds.ts defines. Read from the sources' syntax trees, without loading vscode.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';
import * as contractIds from '../../../src/extension/contractIds';
import { Commands, SETTINGS_SECTION } from '../../../src/extension/contractIds';

const root = join(__dirname, '..', '..', '..');
const extensionDir = join(root, 'src', 'extension');
const CONTRACT_IDS = 'src/extension/contractIds.ts';
const CONTRACT = 'src/extension/contract.ts';

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? tsFiles(full) : name.endsWith('.ts') ? [full] : [];
  });
}

const sources = tsFiles(extensionDir).map((file) => {
  const path = relative(root, file).split('\\').join('/');
  return { path, source: ts.createSourceFile(path, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true) };
});

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

/** `file:line: text` of a node, for failure messages. */
function at(path: string, source: ts.SourceFile, node: ts.Node): string {
  return `${path}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText().slice(0, 120)}`;
}

/** Every node of the given kind in src/extension (but contractIds.ts and contract.ts when `exceptContract`). */
function find(match: (node: ts.Node) => boolean, exceptContract = true): string[] {
  const found: string[] = [];
  for (const { path, source } of sources) {
    if (exceptContract && (path === CONTRACT_IDS || path === CONTRACT)) continue;
    walk(source, (node) => {
      if (match(node)) found.push(at(path, source, node));
    });
  }
  return found;
}

const isCommandsMember = (node: ts.Node | undefined): boolean =>
  node !== undefined && ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'Commands';

/** `vscode.commands.<method>(…)` (or `commands.<method>(…)`). */
const isCommandsCall = (node: ts.Node, method: string): node is ts.CallExpression =>
  ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === method && /(^|\.)commands$/.test(node.expression.expression.getText());

describe('the string contracts in the code', () => {
  it('reads the whole extension layer', () => {
    const paths = sources.map((s) => s.path);
    for (const file of [CONTRACT_IDS, CONTRACT, 'src/extension/extension.ts', 'src/extension/sessions/sessionsView.ts']) assert.ok(paths.includes(file), file);
  });

  it('spells no v8Lens id outside contractIds.ts', () => {
    const literal = new RegExp(`^${SETTINGS_SECTION}(\\.|$)`);
    const raw = find(
      (node) => (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node)) && literal.test(node.text),
      false,
    ).filter((hit) => !hit.startsWith(`${CONTRACT_IDS}:`));
    assert.deepEqual(raw, [], 'use the constants in contractIds.ts');
  });

  it('registers commands, runs its own and sets context keys only through contract.ts', () => {
    assert.deepEqual(find((node) => isCommandsCall(node, 'registerCommand')), [], 'registerCommand from contract.ts');
    assert.deepEqual(find((node) => isCommandsCall(node, 'executeCommand') && isCommandsMember(node.arguments[0])), [], 'runCommand from contract.ts');
    assert.deepEqual(
      find((node) => isCommandsCall(node, 'executeCommand') && node.arguments[0] !== undefined && ts.isStringLiteralLike(node.arguments[0]) && node.arguments[0].text === 'setContext'),
      [],
      'setContext from contract.ts',
    );
  });

  it('attaches its own commands to items and lenses only through asCommand', () => {
    const literals = find((node) => ts.isPropertyAssignment(node) && node.name.getText() === 'command' && isCommandsMember(node.initializer));
    assert.deepEqual(literals, [], 'asCommand from contract.ts');
  });

  it('registers every command in Commands exactly once', () => {
    const registered = find((node) => ts.isCallExpression(node) && node.expression.getText() === 'registerCommand' && isCommandsMember(node.arguments[0])).map(
      (hit) => /registerCommand\(Commands\.(\w+)/.exec(hit)![1]!,
    );
    assert.deepEqual([...registered].sort(), Object.keys(Commands).sort());
  });

  it('uses every id contractIds.ts defines', () => {
    const groups = ['Commands', 'ContextKeys', 'ViewIds', 'WebviewPanelTypes', 'TreeItemContexts', 'StatusBarIds', 'StateKeys'] as const;
    const used = new Set(find((node) => ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && (groups as readonly string[]).includes(node.expression.text)).map((hit) => /^[^:]+:\d+: (\w+\.\w+)/.exec(hit)![1]!));
    for (const group of groups) {
      for (const member of Object.keys(contractIds[group])) assert.ok(used.has(`${group}.${member}`), `${group}.${member} is never used`);
    }
  });
});
