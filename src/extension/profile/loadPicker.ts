/**
 * "Under load?" in Profile with GC Trace: none (run until Stop & Collect), or drive the target with
 * HTTP load for a while, then stop and collect. The choice is remembered per workspace.
 */
import { loadRunnerPath } from '../../core/launcher/bundledScripts';
import * as vscode from 'vscode';
import { PROFILE_LOAD_DEFAULTS, type RunLoadOptions } from '../../core/capture/runLoad';
import { requireLoopbackUrl } from '../../core/load/loopback';
import { UserError, errorMessage } from '../../core/util/errors';
import { StateKeys } from '../contract';

const LAST_LOAD_KEY = StateKeys.LastLoad;

interface SavedLoad {
  url: string | null;
  connections: number;
  durationSeconds: number;
  rate: number | null;
}

type LoadItem = vscode.QuickPickItem & { choice: 'none' | 'last' | 'auto' | 'url' };

/** undefined: the user cancelled; null: no load. */
export async function pickLoad(state: vscode.Memento): Promise<RunLoadOptions | null | undefined> {
  const last = state.get<SavedLoad>(LAST_LOAD_KEY);
  const items: LoadItem[] = [{ label: '$(debug-stop) No load', description: 'run until you stop it (V8 Lens: Stop & Collect)', choice: 'none' }];
  if (last) items.unshift({ label: `$(history) Under load again: ${last.url ?? 'the URL it prints'}`, description: `${last.connections} connections · ${last.durationSeconds} s${last.rate ? ` · ${last.rate} req/s` : ''}`, choice: 'last' });
  items.push(
    { label: '$(pulse) Under load: the URL it prints', description: 'waits for http://127.0.0.1:<port> in its output, drives it, then stops and collects', choice: 'auto' },
    { label: '$(globe) Under load: a URL…', description: 'a loopback URL to drive once it answers', choice: 'url' },
  );
  const picked = await vscode.window.showQuickPick(items, { title: 'V8 Lens: Drive it with HTTP load?', placeHolder: 'A server? Load shows its GC and CPU while serving' });
  if (!picked) return undefined;
  if (picked.choice === 'none') return null;
  let saved: SavedLoad;
  if (picked.choice === 'last' && last) {
    saved = last;
  } else {
    let url: string | null = null;
    if (picked.choice === 'url') {
      const text = await vscode.window.showInputBox({
        title: 'V8 Lens: URL to load',
        value: last?.url ?? 'http://127.0.0.1:3000/',
        prompt: 'On this machine only (127.0.0.1, ::1, localhost): load tests never target another host.',
        validateInput: (value) => {
          try {
            requireLoopbackUrl(value.trim(), 'the URL');
            return undefined;
          } catch (err) {
            return err instanceof UserError ? err.message : errorMessage(err);
          }
        },
      });
      if (!text) return undefined;
      url = requireLoopbackUrl(text.trim(), 'the URL').href;
    }
    const how = await vscode.window.showQuickPick(
      [
        { label: `${PROFILE_LOAD_DEFAULTS.durationSeconds} s, ${PROFILE_LOAD_DEFAULTS.connections} connections`, seconds: PROFILE_LOAD_DEFAULTS.durationSeconds, connections: PROFILE_LOAD_DEFAULTS.connections },
        { label: '30 s, 20 connections', seconds: 30, connections: 20 },
        { label: '60 s, 50 connections', seconds: 60, connections: 50 },
        { label: '5 s, 10 connections', description: 'a quick look', seconds: 5, connections: 10 },
      ],
      { title: 'V8 Lens: How much load?', placeHolder: `Measured after ${PROFILE_LOAD_DEFAULTS.warmupSeconds} s of warm-up, as fast as it answers` },
    );
    if (!how) return undefined;
    saved = { url, connections: how.connections, durationSeconds: how.seconds, rate: null };
  }
  await state.update(LAST_LOAD_KEY, saved);
  return {
    url: saved.url,
    connections: saved.connections,
    warmupSeconds: PROFILE_LOAD_DEFAULTS.warmupSeconds,
    durationSeconds: saved.durationSeconds,
    rate: saved.rate,
    readyTimeoutMs: PROFILE_LOAD_DEFAULTS.readyTimeoutMs,
    loadRunnerPath: loadRunnerPath(),
    badUrlHint: 'give the URL of a path it serves (Under load: a URL…)',
  };
}
