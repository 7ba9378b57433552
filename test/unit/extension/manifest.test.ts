/**
 * package.json's contributions against the typed contract in src/extension/contractIds.ts: a command,
 * setting or view that one side names and the other does not is caught here, not by a user.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Commands, ContextKeys, SETTING_KEYS, ViewIds } from '../../../src/extension/contractIds';

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
const contributes = manifest.contributes;

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
    const ids = new Set<string>(Object.values(Commands));
    for (const entries of Object.values(contributes.menus) as { command: string; when?: string }[][]) {
      for (const entry of entries) assert.ok(ids.has(entry.command), `menu names unknown command ${entry.command}`);
    }
    const stop = contributes.commands.find((c: { command: string }) => c.command === Commands.StopRun);
    assert.equal(stop.enablement, ContextKeys.Running);
  });

  it('declares exactly the settings the code reads, each with a markdownDescription', () => {
    const properties = contributes.configuration.properties as Record<string, { markdownDescription?: string }>;
    assert.deepEqual(Object.keys(properties).sort(), SETTING_KEYS.map((k) => `v8Lens.${k}`).sort());
    for (const [key, p] of Object.entries(properties)) assert.ok(p.markdownDescription, key);
  });

  it('has the Sessions view in the V8 Lens container, and launching needs a trusted workspace', () => {
    assert.deepEqual(contributes.views['v8-lens'].map((v: { id: string }) => v.id), [ViewIds.Sessions, ViewIds.SemiSpaceLab]);
    assert.equal(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.equal(contributes.commands.find((c: { command: string }) => c.command === Commands.Profile).enablement, 'isWorkspaceTrusted');
    // Besides the contributions, only JS/TS files activate it: for the run's annotations on them.
    assert.deepEqual(manifest.activationEvents, ['onLanguage:javascript', 'onLanguage:typescript', 'onLanguage:javascriptreact', 'onLanguage:typescriptreact']);
  });
});
