/**
 * The extension's entry (package.json `main`): runs the extension (extension-main.js beside it)
 * with a V8 code cache of it (core/util/codeCache.ts). Compiling the 500 KB bundle was most of
 * what activating V8 Lens cost the extension host; from the cache it is a fraction of that. The
 * cache is written a while after activation, once the views and commands have run their first code
 * (and at the extension host's exit, whichever comes first).
 *
 * Node built-ins only, and nothing else: this file is evaluated before any cache helps.
 */
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { loadWithCodeCache } from '../core/util/codeCache';

interface Extension {
  activate(context: vscode.ExtensionContext): unknown;
  deactivate?(): unknown;
}

/** Long enough for the views, CodeLens and first commands to have compiled; the write is a few ms. */
const SAVE_AFTER_ACTIVATION_MS = 20_000;

const loaded = loadWithCodeCache(join(__dirname, 'extension-main.js'), 'activate');
const extension = loaded.exports as Extension;

export function activate(context: vscode.ExtensionContext): unknown {
  const result = extension.activate(context);
  setTimeout(() => loaded.save(), SAVE_AFTER_ACTIVATION_MS).unref();
  return result;
}

export function deactivate(): unknown {
  loaded.save();
  return extension.deactivate?.();
}
