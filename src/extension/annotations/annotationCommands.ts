/**
 * The status-bar item that names the annotated run, the run picker behind it, and the list a deopt
 * CodeLens opens.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { DeoptFunctionLens } from '../../core/annotations/annotationTypes';
import { siteWhen } from '../../core/annotations/annotationText';
import { deoptEventsText } from '../../shared/deoptText';
import { Commands, StatusBarIds, runCommand } from '../contract';
import { describeRun, listWorkspaceRuns } from '../sessions/sessionsView';
import type { AnnotationStore } from './annotationStore';
import { runLabel } from './runLabel';

export class AnnotationStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(StatusBarIds.Annotations, vscode.StatusBarAlignment.Right, 90);
  private readonly subscription: vscode.Disposable;

  constructor(private readonly store: AnnotationStore) {
    this.item.name = 'V8 Lens annotations';
    this.item.command = Commands.PickAnnotatedRun;
    this.subscription = store.onDidChange(() => this.update());
    this.update();
  }

  private update(): void {
    const run = this.store.current;
    if (!this.store.runSource || !run) {
      this.item.hide();
      return;
    }
    const { enabled, deopts, heat, alloc } = this.store.settings;
    const parts = [`V8 Lens: ${runLabel(run)}`];
    if (enabled) parts.push(deoptEventsText(run.deoptEvents, run.deoptCoverage));
    else parts.push('annotations off');
    this.item.text = `$(${enabled ? 'flame' : 'eye-closed'}) ${parts.join(' · ')}`;
    const md = new vscode.MarkdownString();
    md.appendText(`Source lines show ${runLabel(run)} (${run.source}).`);
    md.appendMarkdown('\n\n');
    md.appendText(`Deopts ${enabled && deopts ? 'on' : 'off'} · line heat ${enabled && heat ? 'on' : 'off'} · allocations ${!run.alloc ? 'not collected' : enabled && alloc ? 'on' : 'off'}. Click to switch run or turn annotations off.`);
    for (const w of run.warnings) {
      md.appendMarkdown('\n\n');
      md.appendText(`⚠ ${w}`);
    }
    this.item.tooltip = md;
    this.item.show();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}

type PickItem = vscode.QuickPickItem & { run?: () => PromiseLike<unknown> };

/** Switch the annotated run, toggle deopts/heat/allocations, or turn annotations off. */
export async function pickAnnotatedRun(store: AnnotationStore, openReport: (source: string) => Promise<void>): Promise<void> {
  const { enabled, deopts, heat, alloc } = store.settings;
  const current = store.runSource;
  const items: PickItem[] = [];
  if (current) {
    items.push(
      enabled
        ? { label: '$(eye-closed) Turn annotations off', run: () => store.setToggles({ enabled: false }) }
        : { label: '$(eye) Turn annotations on', run: () => store.setToggles({ enabled: true }) },
      { label: `$(warning) Deopts on source lines: ${deopts ? 'on' : 'off'}`, description: 'toggle', run: () => store.setToggles({ deopts: !deopts, enabled: true }) },
      { label: `$(flame) Line heat (self time): ${heat ? 'on' : 'off'}`, description: 'toggle', run: () => store.setToggles({ heat: !heat, enabled: true }) },
      { label: `$(trash) Allocation lenses: ${alloc ? 'on' : 'off'}`, description: 'toggle', run: () => store.setToggles({ alloc: !alloc, enabled: true }) },
    );
  }
  const runs = await listWorkspaceRuns();
  if (runs.length > 0) items.push({ label: 'Runs', kind: vscode.QuickPickItemKind.Separator });
  for (const r of runs.slice(0, 30)) {
    const name = r.session ? basename(r.session.target.program) : basename(r.runDir);
    items.push({
      label: `${r.runDir === current ? '$(check)' : '$(blank)'} ${name}`,
      description: describeRun(r),
      detail: r.runDir === current ? 'annotating now' : undefined,
      run: () => openReport(r.runDir),
    });
  }
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator }, {
    label: '$(folder-opened) Open a run folder or .cpuprofile…',
    run: () => runCommand(Commands.OpenReport),
  });
  const picked = await vscode.window.showQuickPick(items, { title: 'V8 Lens: annotations', placeHolder: 'Which run the source lines show, and what' });
  await picked?.run?.();
}

/** A deopt CodeLens's click: each site of the function, with reason and inlining; picking jumps there. */
export async function showDeoptSites(uri: vscode.Uri | undefined, lens: DeoptFunctionLens | undefined, store: AnnotationStore): Promise<void> {
  if (!uri || !lens) return;
  const document = await vscode.workspace.openTextDocument(uri);
  const shown = await store.forDocument(document);
  const lineOf = shown.state === 'shown' ? shown.line : (l: number) => l;
  type SiteItem = vscode.QuickPickItem & { line: number | null; column: number };
  const items: SiteItem[] = lens.sites.map((s) => {
    const line = lineOf(s.line);
    const chain = s.inlinedAt.map((p) => `${basename(p.path)}:${p.line}:${p.column}`).join(' ← ');
    const when = siteWhen(s);
    return {
      label: `${s.harmless ? '$(info)' : '$(warning)'} ${s.reason}${s.count > 1 ? ` ×${s.count}` : ''}`,
      description: `${basename(document.uri.fsPath)}:${line ?? `${s.line} (edited)`}:${s.column} · ${s.kind}${s.tier ? ` · ${s.tier}` : ''}`,
      detail: [s.optimizedFunction !== s.function ? `inlined into ${s.optimizedFunction}` : null, chain ? `at ${chain}` : null, when, s.harmless ? 'usually harmless' : null]
        .filter(Boolean)
        .join(' · ') || undefined,
      line,
      column: s.column,
    };
  });
  const picked = await vscode.window.showQuickPick(items, {
    title: `V8 Lens: deopts in ${lens.name} (${lens.count})`,
    placeHolder: 'Pick one to go to its position',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!picked || picked.line === null) return;
  const position = new vscode.Position(picked.line - 1, Math.max(0, picked.column - 1));
  await vscode.window.showTextDocument(document, { selection: new vscode.Range(position, position) });
}
