/**
 * package.json's contributions against the typed contract in src/extension/contractIds.ts: a command,
 * setting, view, context key or tree item context value that one side names and the other does not
 * is caught here, not by a user.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  CONTEXT_KEY_TYPES,
  Commands,
  CustomEditorTypes,
  ContextKeys,
  SETTINGS_SECTION,
  SETTING_ENUMS,
  SETTING_KEYS,
  SETTING_TYPES,
  StateKeys,
  StatusBarIds,
  TreeItemContexts,
  VIEW_CONTAINER_ID,
  VIEW_KINDS,
  ViewIds,
  WebviewPanelTypes,
  settingName,
  type Settings,
} from '../../../src/extension/contractIds';

const REPO_ROOT = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
const contributes = manifest.contributes;

const commandIds = new Set<string>(Object.values(Commands));
const contextKeys = new Set<string>(Object.values(ContextKeys));
const viewIds = new Set<string>(Object.values(ViewIds));
const treeItemContexts = new Set<string>(Object.values(TreeItemContexts));
const webviewPanelTypes = new Set<string>(Object.values(WebviewPanelTypes));
const settingNames = new Set<string>(SETTING_KEYS.map((k) => settingName(k)));

/** Every `when` and `enablement` string anywhere under `contributes`, with where it is. */
function whenClauses(node: unknown, path: string, out: { where: string; clause: string }[] = []): { where: string; clause: string }[] {
  if (Array.isArray(node)) node.forEach((n, i) => whenClauses(n, `${path}[${i}]`, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if ((key === 'when' || key === 'enablement') && typeof value === 'string') out.push({ where: `${path}.${key}`, clause: value });
      else whenClauses(value, `${path}.${key}`, out);
    }
  }
  return out;
}

interface WhenTerm {
  key: string;
  op: string | null;
  value: string | null;
}

/**
 * A `when` clause's terms: `key`, `!key`, `key op value`. `&&`, `||`, `!` and parentheses only join
 * them; a term this does not understand fails the test (rather than going unchecked).
 */
function whenTerms(clause: string): WhenTerm[] {
  return clause
    .split(/&&|\|\||[()]/)
    .map((t) => t.trim().replace(/^!\s*/, ''))
    .filter((t) => t !== '')
    .map((t) => {
      const m = /^([\w.:-]+)\s*(?:(===?|!==?|=~|>=|<=|>|<|not in|in)\s*('[^']*'|\/.+\/[a-z]*|[^\s'=!<>~]+))?$/.exec(t);
      assert.ok(m, `cannot read the when-clause term "${t}" in "${clause}"`);
      return { key: m[1]!, op: m[2] ?? null, value: m[3] === undefined ? null : m[3].replace(/^'(.*)'$/, '$1') };
    });
}

/** Context keys VS Code itself sets that our clauses may use; another one needs adding here on purpose. */
const BUILT_IN_CONTEXT_KEYS = new Set(['true', 'false', 'isWorkspaceTrusted', 'view', 'viewItem', 'activeWebviewPanelId', 'webviewId', 'resourceLangId', 'editorLangId', 'resourceScheme', 'isWeb']);

const allTerms = whenClauses(contributes, 'contributes').flatMap(({ where, clause }) => whenTerms(clause).map((term) => ({ where, clause, ...term })));

describe('the extension manifest', () => {
  it('contributes exactly the commands the code registers, each with the V8 Lens category and an icon', () => {
    const declared = (contributes.commands as { command: string; category: string; icon?: string }[]);
    assert.deepEqual(declared.map((c) => c.command).sort(), Object.values(Commands).sort());
    for (const c of declared) {
      assert.equal(c.category, 'V8 Lens', c.command);
      assert.match(c.icon ?? '', /^\$\([a-z-]+\)$/, `${c.command} has a codicon`);
    }
  });

  it('menus only name declared commands, and the run-only ones hang on the running context key', () => {
    for (const entries of Object.values(contributes.menus) as { command: string; when?: string }[][]) {
      for (const entry of entries) assert.ok(commandIds.has(entry.command), `menu names unknown command ${entry.command}`);
    }
    const stop = contributes.commands.find((c: { command: string }) => c.command === Commands.StopRun);
    assert.equal(stop.enablement, ContextKeys.Running);
  });

  it('keybindings and command: links name only declared commands', () => {
    for (const binding of (contributes.keybindings ?? []) as { command: string }[]) {
      assert.ok(commandIds.has(binding.command.replace(/^-/, '')), `keybinding names unknown command ${binding.command}`);
    }
    // viewsWelcome buttons and settings' descriptions link commands as command:<id>.
    const links = [...JSON.stringify(contributes).matchAll(/command:([\w.-]+)/g)].map((m) => m[1]!);
    assert.ok(links.length > 0, 'the welcome view links its commands');
    for (const id of links.filter((l) => l.startsWith(`${SETTINGS_SECTION}.`))) assert.ok(commandIds.has(id), `command:${id} links an unknown command`);
  });

  it('declares exactly the settings the code reads, each with a markdownDescription', () => {
    const properties = contributes.configuration.properties as Record<string, { markdownDescription?: string }>;
    assert.deepEqual(Object.keys(properties).sort(), SETTING_KEYS.map((k) => `v8Lens.${k}`).sort());
    for (const [key, p] of Object.entries(properties)) assert.ok(p.markdownDescription, key);
  });

  it('declares each setting with the type the code reads it as, and enums with exactly the values the code knows', () => {
    const properties = contributes.configuration.properties as Record<string, { type: string; enum?: unknown[] }>;
    for (const key of SETTING_KEYS) {
      const declared = properties[settingName(key)];
      assert.ok(declared, `${settingName(key)} is contributed`);
      assert.equal(declared.type, SETTING_TYPES[key], `${settingName(key)}'s type`);
      const values = (SETTING_ENUMS as Partial<Record<keyof Settings, readonly unknown[]>>)[key];
      if (values) assert.deepEqual(declared.enum, [...values], `${settingName(key)}'s enum`);
      else assert.equal(declared.enum, undefined, `${settingName(key)} has an enum the code does not type`);
    }
    const defaultFlags = properties[settingName('defaultFlags')] as unknown as { items: { type: string } };
    assert.equal(defaultFlags.items.type, 'string');
  });

  it('links and restricts only settings that exist', () => {
    const links = [...JSON.stringify(contributes.configuration).matchAll(/#(v8Lens\.[\w.]+)#/g)].map((m) => m[1]!);
    assert.ok(links.length > 0, 'the heat settings link each other');
    for (const link of links) assert.ok(settingNames.has(link), `a description links the unknown setting ${link}`);
    for (const key of manifest.capabilities.untrustedWorkspaces.restrictedConfigurations as string[]) {
      assert.ok(settingNames.has(key), `restrictedConfigurations names the unknown setting ${key}`);
    }
  });

  it('has the Sessions view in the V8 Lens container, and launching needs a trusted workspace', () => {
    assert.deepEqual(contributes.views['v8-lens'].map((v: { id: string }) => v.id), [ViewIds.Sessions, ViewIds.SemiSpaceLab]);
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.equal(contributes.commands.find((c: { command: string }) => c.command === Commands.Profile).enablement, 'isWorkspaceTrusted');
    // Besides its contributions (commands, views, the custom editor), only a workspace with V8 Lens
    // runs or sweeps activates it: to show the last run's annotations on its sources.
    assert.deepEqual(manifest.activationEvents, ['workspaceContains:.v8-lens/runs/*/session.json', 'workspaceContains:.v8-lens/sweeps/*/sweep.json']);
    // It runs where the code runs (Remote-SSH, containers, Codespaces).
    assert.deepEqual(manifest.extensionKind, ['workspace']);
  });

  it('offers its report as a custom editor that never takes over VS Code\'s own viewer', () => {
    const editors = contributes.customEditors as { viewType: string; priority: string; selector: { filenamePattern: string }[] }[];
    assert.deepEqual(editors.map((e) => e.viewType), [CustomEditorTypes.Profile]);
    assert.equal(editors[0]!.priority, 'option');
    assert.deepEqual(editors[0]!.selector.map((s) => s.filenamePattern), ['*.cpuprofile', '*.heapprofile', '*.pb.gz', '**/.v8-lens/runs/*/summary.json']);
    assert.equal(manifest.icon, 'media/icon.png');
    assert.ok(existsSync(join(REPO_ROOT, manifest.icon)), 'the 128×128 icon is in the repository');
  });

  it('contributes exactly the views the code creates, each of the kind the code registers, and welcome content only for them', () => {
    assert.deepEqual(contributes.viewsContainers.activitybar.map((c: { id: string }) => c.id), [VIEW_CONTAINER_ID]);
    assert.deepEqual(Object.keys(contributes.views), [VIEW_CONTAINER_ID]);
    const views = Object.values(contributes.views).flat() as { id: string; type?: string }[];
    assert.deepEqual(views.map((v) => v.id).sort(), [...viewIds].sort());
    for (const v of views) assert.equal(v.type ?? 'tree', VIEW_KINDS[v.id as keyof typeof VIEW_KINDS], `${v.id}'s type`);
    for (const welcome of contributes.viewsWelcome as { view: string }[]) assert.ok(viewIds.has(welcome.view), `welcome content for unknown view ${welcome.view}`);
  });

  it('activates only on events that name what the code defines', () => {
    for (const event of manifest.activationEvents as string[]) {
      const [kind, id] = event.split(/:(.*)/s) as [string, string | undefined];
      if (kind === 'workspaceContains') {
        assert.match(id!, /^\.v8-lens\/(runs\/\*\/session\.json|sweeps\/\*\/sweep\.json)$/, event);
        continue;
      }
      if (kind === 'onCommand') assert.ok(commandIds.has(id!), event);
      else if (kind === 'onView') assert.ok(viewIds.has(id!), event);
      else if (kind === 'onWebviewPanel') assert.ok(webviewPanelTypes.has(id!), event);
      else assert.fail(`unexpected activation event ${event}`);
    }
  });

  it('reads its when clauses', () => {
    assert.deepEqual(whenTerms("view == v8Lens.sessions && viewItem == 'v8Lens.run'"), [
      { key: 'view', op: '==', value: 'v8Lens.sessions' },
      { key: 'viewItem', op: '==', value: 'v8Lens.run' },
    ]);
    assert.deepEqual(whenTerms('!v8Lens.running || (isWorkspaceTrusted && v8Lens.annotationsShown != false)'), [
      { key: 'v8Lens.running', op: null, value: null },
      { key: 'isWorkspaceTrusted', op: null, value: null },
      { key: 'v8Lens.annotationsShown', op: '!=', value: 'false' },
    ]);
    assert.throws(() => whenTerms('v8Lens.running ==='), /cannot read/);
    // menus, commands' enablement and viewsWelcome all have clauses; every one is checked below.
    const where = new Set(allTerms.map((t) => t.where.split(/[.[]/)[1]));
    for (const section of ['menus', 'commands']) assert.ok(where.has(section), `${section} has when clauses`);
  });

  it('uses in when clauses only context keys the code sets (with values of their type) or VS Code\'s own', () => {
    for (const { key, op, value, where, clause } of allTerms) {
      const context = `${where}: "${clause}"`;
      if (contextKeys.has(key)) {
        const type: string = CONTEXT_KEY_TYPES[key as keyof typeof CONTEXT_KEY_TYPES];
        if (op !== null && type === 'boolean') assert.ok(['==', '!=', '===', '!=='].includes(op) && (value === 'true' || value === 'false'), `${key} is a boolean: ${context}`);
        if (op !== null && type === 'number') assert.ok(!Number.isNaN(Number(value)), `${key} is a number: ${context}`);
        continue;
      }
      if (key.startsWith('config.')) {
        assert.ok(settingNames.has(key.slice('config.'.length)), `unknown setting in ${context}`);
        continue;
      }
      assert.ok(!key.startsWith(`${SETTINGS_SECTION}.`), `${key} is not a context key the code sets: ${context}`);
      assert.ok(BUILT_IN_CONTEXT_KEYS.has(key), `unknown context key ${key}: ${context}`);
    }
  });

  it('compares view, viewItem and webview ids in when clauses only with ones the code defines', () => {
    const known: Record<string, Set<string>> = { view: viewIds, viewItem: treeItemContexts, activeWebviewPanelId: webviewPanelTypes, webviewId: webviewPanelTypes };
    let checked = 0;
    for (const { key, op, value, where, clause } of allTerms) {
      const ids = known[key];
      if (!ids) continue;
      const context = `${where}: "${clause}"`;
      assert.ok(op !== null && value !== null, `${key} without a comparison: ${context}`);
      if (op === '=~') {
        const m = /^\/(.*)\/([a-z]*)$/.exec(value);
        assert.ok(m, `${key} =~ needs a /regex/: ${context}`);
        const re = new RegExp(m[1]!, m[2]);
        assert.ok([...ids].some((id) => re.test(id)), `${value} matches no ${key} the code defines: ${context}`);
      } else {
        assert.ok(['==', '!=', '===', '!=='].includes(op), `${key} ${op}: ${context}`);
        assert.ok(ids.has(value), `${key} ${op} ${value}: not one the code defines (${context})`);
      }
      checked += 1;
    }
    assert.ok(checked > 0);
    assert.ok(allTerms.some((t) => t.key === 'viewItem' && t.value === TreeItemContexts.Run), 'the Sessions run items have their menu');
  });

  it('sets no context key and defines no tree item context value that package.json never asks about', () => {
    for (const key of contextKeys) assert.ok(allTerms.some((t) => t.key === key), `${key} is set but no when clause reads it`);
    for (const value of treeItemContexts) assert.ok(allTerms.some((t) => t.key === 'viewItem' && t.value === value), `${value} is a contextValue no menu matches`);
  });

  it('spells each of its own ids once, under v8Lens.', () => {
    const groups: Record<string, readonly string[]> = {
      Commands: Object.values(Commands),
      ContextKeys: Object.values(ContextKeys),
      ViewIds: Object.values(ViewIds),
      WebviewPanelTypes: Object.values(WebviewPanelTypes),
      TreeItemContexts: Object.values(TreeItemContexts),
      StatusBarIds: Object.values(StatusBarIds),
      StateKeys: Object.values(StateKeys),
    };
    for (const [name, ids] of Object.entries(groups)) {
      assert.equal(new Set(ids).size, ids.length, `${name} has a duplicate`);
      for (const id of ids) assert.ok(id.startsWith(`${SETTINGS_SECTION}.`), `${name}: ${id}`);
    }
  });
});
