/**
 * "Export as pprof…": a run (from the Sessions view, or the report in front) as a gzipped pprof
 * for the fleet's profiler (Pyroscope, Parca, Datadog) or `go tool pprof`, the same file as
 * `v8-lens export --pprof`. A run with both CPU and allocations asks which.
 */
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { exportPprof, type ExportKind } from '../../core/report/exportPprof';
import { UserError, errorMessage } from '../../core/util/errors';
import type { SessionItemArg } from '../contract';
import { writeErrorText, writeFileWhole } from '../../core/util/safeWrite';

export async function exportPprofCommand(item: SessionItemArg | undefined, activeSource: string | null): Promise<void> {
  try {
    const source = item?.runDir ?? activeSource;
    if (!source) {
      void vscode.window.showInformationMessage('V8 Lens: pick a run in the Sessions view (or open its report), then Export as pprof.');
      return;
    }
    const reading = (kind: ExportKind | null) =>
      vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `V8 Lens: exporting ${basename(source)} as pprof` }, () => exportPprof(source, kind));
    const first = await reading(null);
    let kind: ExportKind = first.kind;
    if (first.alsoHas) {
      // Not `kind`: QuickPickItem has one of its own (separators).
      const choices: (vscode.QuickPickItem & { profile: ExportKind })[] = [
        { label: 'CPU', description: 'samples/count, cpu/nanoseconds', profile: 'cpu' },
        { label: 'Allocations', description: 'alloc_space/bytes (garbage included)', profile: 'alloc' },
      ];
      const picked = await vscode.window.showQuickPick(
        choices,
        { title: `V8 Lens: Export ${basename(source)} as pprof`, placeHolder: 'Which profile?' },
      );
      if (!picked) return;
      kind = picked.profile;
    }
    const suggested = vscode.Uri.file(join(dirname(source), `${basename(source)}.${kind}.pb.gz`));
    const target = await vscode.window.showSaveDialog({ defaultUri: suggested, filters: { 'pprof (gzipped)': ['gz'] }, title: 'V8 Lens: Export as pprof' });
    if (!target) return;
    const out = kind === first.kind ? first : await reading(kind);
    // Whole or not at all: a full disk leaves no pprof cut short.
    await writeFileWhole(target.fsPath, out.bytes).catch((err: unknown) => {
      throw new UserError(`cannot write ${basename(target.fsPath)}: ${writeErrorText(err)}; nothing was written`);
    });
    const warn = out.warnings.length > 0 ? ` (${out.warnings[0]})` : '';
    void vscode.window.showInformationMessage(`V8 Lens: wrote ${basename(target.fsPath)}: ${out.kind === 'cpu' ? 'CPU' : 'allocations'} as pprof, ${out.samples.toLocaleString('en-US')} samples${warn}.`);
  } catch (err) {
    void vscode.window.showErrorMessage(`V8 Lens: ${err instanceof UserError ? err.message : `cannot export: ${errorMessage(err)}`}`);
  }
}
