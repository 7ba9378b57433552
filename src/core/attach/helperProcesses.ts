/**
 * Node processes that are not the user's program: an editor's own servers and language servers
 * (VS Code, code-server, remote servers and their forks: tsserver, jsonServerMain, an extension's
 * server, the extension host) and V8 Lens's own (its load generator, its CLI). The attach picker
 * offers only the rest: attaching to tsserver profiles the editor, not the app.
 */
import { basename, sep } from 'node:path';

/** Folders an editor installs itself or its extensions in (desktop, remote servers, forks). */
const EDITOR_FOLDER = /[\\/]\.(?:vscode|vscode-insiders|vscode-oss|vscode-server|vscode-server-insiders|vscode-remote|cursor|cursor-server|windsurf|windsurf-server|positron|openvscode-server)[\\/]/i;
/** code-server and VS Code's server builds: the server itself and everything under its lib/vscode. */
const EDITOR_INSTALL = /[\\/](?:code-server|openvscode-server|vscode-server|vscode-reh[\w-]*)[\\/]|[\\/]lib[\\/]vscode[\\/]/i;
/** VS Code's own process kinds, whatever folder they run from. */
const EDITOR_ARGS = /^--type=(?:extensionHost|fileWatcher|ptyHost|utility|shared-process)$|[\\/]bootstrap-fork(?:\.js)?$|[\\/]out[\\/]server-main\.js$/;
/** Language servers by their entry file (TypeScript's, VS Code's built-in ones: jsonServerMain, cssServerMain, …). */
const LANGUAGE_SERVER = /(?:^|[\\/])(?:tsserver|typingsInstaller|[a-z]+ServerMain|eslintServer|server-node)\.js$/i;

/**
 * Why a Node process is not one to attach to, in a few words, or null when it is the user's.
 * `ownScriptDirs`: folders of V8 Lens's own bundles (a script run from there is V8 Lens).
 */
export function helperProcessKind(argv: readonly string[], ownScriptDirs: readonly string[]): string | null {
  const script = scriptOf(argv);
  if (script !== null && ownScriptDirs.some((dir) => dir.length > 1 && script.startsWith(dir.endsWith(sep) ? dir : dir + sep))) {
    return `V8 Lens's own ${basename(script) === 'load-runner.js' ? 'load generator' : 'process'}`;
  }
  if (argv.some((a) => EDITOR_ARGS.test(a))) return "the editor's own process";
  if (script !== null && LANGUAGE_SERVER.test(script)) return 'a language server';
  // The script, or the Node binary an editor ships (code-server's lib/node, a remote server's bin/…/node);
  // not any argument: a target V8 Lens profiles --requires its agent from the editor's extensions folder.
  if ([argv[0] ?? '', script ?? ''].some((a) => EDITOR_FOLDER.test(a) || EDITOR_INSTALL.test(a))) return "an editor's helper";
  return null;
}

/** The script Node runs: its first argument that is not an option (nor an option's value we know of). */
export function scriptOf(argv: readonly string[]): string | null {
  const takesValue = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '-e', '--eval', '-p', '--print', '--inspect-port', '--title', '--env-file']);
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return argv[i + 1] ?? null;
    if (!a.startsWith('-')) return a;
    if (takesValue.has(a)) i++;
  }
  return null;
}
