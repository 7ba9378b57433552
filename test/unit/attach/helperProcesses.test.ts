/**
 * Which Node processes the attach picker leaves out as not the user's program (issue 21: it listed
 * other editors' tsserver and jsonServerMain, and V8 Lens's own load runner), on the command lines
 * those processes really have (read from /proc of a code-server session and a VS Code remote server).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { helperProcessKind, scriptOf } from '../../../src/core/attach/helperProcesses';

const OWN = ['/home/me/.vscode/extensions/v8-lens.v8-lens-0.1.0/dist'];
const kind = (commandLine: string, own = OWN) => helperProcessKind(commandLine.split(' '), own);

describe('attach picker: helpers that are not the user\'s program', () => {
  it("leaves out editors' language servers and their own processes, wherever they are installed", () => {
    const helpers: [string, string][] = [
      ['/usr/lib/code-server/lib/node /usr/lib/code-server/lib/vscode/extensions/node_modules/typescript/lib/tsserver.js --serverMode partialSemantic --useInferredProjectPerProjectRoot', 'a language server'],
      ['/home/me/.vscode-server/bin/abc123/node /home/me/.vscode-server/bin/abc123/extensions/json-language-features/server/dist/node/jsonServerMain --node-ipc --clientProcessId=4242', "an editor's helper"],
      ['node /opt/other-editor/resources/app/extensions/json-language-features/server/dist/node/jsonServerMain.js --node-ipc', 'a language server'],
      ['node /work/project/node_modules/typescript/lib/typingsInstaller.js --globalTypingsCacheLocation /home/me/.cache/typescript/5.6', 'a language server'],
      ['/usr/lib/code-server/lib/node /usr/lib/code-server/lib/vscode/out/bootstrap-fork --type=extensionHost --transformURIs --useHostProxy=false', "the editor's own process"],
      ['/usr/lib/code-server/lib/node /usr/lib/code-server/out/node/entry.js --bind-addr 127.0.0.1:8080', "an editor's helper"],
      ['/home/me/.vscode-server/bin/abc123/node /home/me/.vscode-server/bin/abc123/out/server-main.js --start-server', "the editor's own process"],
      ['node /home/me/.cursor-server/extensions/dbaeumer.vscode-eslint-3.0.10/server/out/eslintServer.js --node-ipc', 'a language server'],
      ['node /home/me/.vscode/extensions/some.extension-1.0.0/out/helper.js', "an editor's helper"],
      ['/usr/bin/node /home/me/.vscode/extensions/v8-lens.v8-lens-0.1.0/dist/load-runner.js', "V8 Lens's own load generator"],
      ['node /home/me/.vscode/extensions/v8-lens.v8-lens-0.1.0/dist/cli.js profile -- app.js', "V8 Lens's own process"],
    ];
    for (const [commandLine, why] of helpers) assert.equal(kind(commandLine), why, commandLine);
  });

  it("offers the user's programs, V8 Lens's targets included", () => {
    for (const commandLine of [
      'node server.js',
      '/usr/bin/node --inspect-port=0 /work/project/app.js --port 3000',
      // A target V8 Lens profiles: the preload is --require'd, the script is the user's.
      'node --cpu-prof --require /home/me/.vscode/extensions/v8-lens.v8-lens-0.1.0/dist/agent/preload.js /work/project/app.js',
      'node /work/project/node_modules/.bin/next dev',
      'node /work/project/dist/server-main.js',
      'node -r ts-node/register src/index.ts',
    ]) {
      assert.equal(kind(commandLine), null, commandLine);
    }
  });

  it('finds the script past the options that take a value', () => {
    assert.equal(scriptOf(['node', '--require', '/x/preload.js', '-r', 'y', '--max-old-space-size=512', 'app.js', 'arg']), 'app.js');
    assert.equal(scriptOf(['node', '--', 'app.js']), 'app.js');
    assert.equal(scriptOf(['node', '--inspect']), null);
    // Without a folder of its own (not found), nothing is recognised as V8 Lens's by folder.
    assert.equal(kind('node /home/me/.vscode/extensions/v8-lens.v8-lens-0.1.0/dist/load-runner.js', []), "an editor's helper");
  });
});
