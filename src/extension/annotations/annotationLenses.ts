/**
 * CodeLenses above functions: why V8 deoptimized them, how much time the hot ones took, how much
 * the allocating ones allocate, and (on request) which ones stayed optimized. Plus one notice lens
 * at the top for a stale file or when a file has more deopts than we draw.
 */
import * as vscode from 'vscode';
import { allocLensTitle, allocLensTooltip, deoptLensTitle, hotLensTitle, optimizedLensTitle, survivorLensTitle, survivorLensTooltip } from '../../core/annotations/annotationText';
import { Commands, asCommand, readSetting } from '../contract';
import type { AnnotationStore } from './annotationStore';
import { runLabel } from './runLabel';
import { runClock } from '../../shared/runTime';

export class AnnotationLenses implements vscode.CodeLensProvider {
  readonly onDidChangeCodeLenses: vscode.Event<void>;

  constructor(private readonly store: AnnotationStore) {
    this.onDidChangeCodeLenses = store.onDidChange;
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const shown = await this.store.forDocument(document);
    const run = this.store.current;
    if (shown.state === 'none' || !run) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    if (shown.state === 'stale') {
      const when = runClock(shown.fileChangedAt);
      return [
        new vscode.CodeLens(top, {
          ...asCommand(Commands.PickAnnotatedRun, `$(history) V8 Lens: this file changed at ${when}, after ${runLabel(run)}; annotations hidden so they do not land on wrong lines`),
          tooltip: 'Profile again, or pick another run',
        }),
        new vscode.CodeLens(top, asCommand(Commands.ShowStaleAnnotations, 'Show anyway', document.uri)),
      ];
    }
    const { file, line } = shown;
    const { deopts, heat, alloc } = this.store.settings;
    const lenses: vscode.CodeLens[] = [];
    const at = (recordedLine: number, column: number) => {
      const l = line(recordedLine);
      if (l === null || l > document.lineCount) return null;
      const p = new vscode.Position(l - 1, Math.max(0, column - 1));
      return new vscode.Range(p, p);
    };
    if (deopts) {
      if (file.hiddenDeoptSites > 0 || file.hiddenDeoptLenses > 0) {
        const total = file.deoptSites.length + file.hiddenDeoptSites;
        lenses.push(new vscode.CodeLens(top, {
          ...asCommand(Commands.OpenReport, `$(info) V8 Lens: ${total.toLocaleString('en-US')} deopt sites in this file; the ${file.deoptSites.length.toLocaleString('en-US')} most frequent are drawn`, vscode.Uri.file(run.source)),
          tooltip: 'The report lists them all',
        }));
      }
      for (const fn of file.deoptFunctions) {
        const range = at(fn.line, fn.column);
        if (range) {
          lenses.push(new vscode.CodeLens(range, {
            ...asCommand(Commands.ShowDeoptSites, deoptLensTitle(fn), document.uri, fn),
            tooltip: `Where ${fn.name} deoptimized and why: pick one to go there`,
          }));
        }
      }
    }
    if (heat) {
      for (const fn of file.hotFunctions) {
        const range = at(fn.line, fn.column);
        if (range) {
          lenses.push(new vscode.CodeLens(range, {
            ...asCommand(Commands.OpenReport, hotLensTitle(fn), vscode.Uri.file(run.source)),
            tooltip: `${fn.name}: self time is spent in its own code, total includes what it calls (recursion counted once).${fn.tiers ? ` Tiers: ${fn.tiers.story}.` : ''} Click for the report.`,
          }));
        }
      }
    }
    if (alloc) {
      for (const fn of file.allocFunctions) {
        const range = at(fn.line, fn.column);
        if (range) {
          lenses.push(new vscode.CodeLens(range, { ...asCommand(Commands.OpenReport, allocLensTitle(fn), vscode.Uri.file(run.source)), tooltip: allocLensTooltip(fn) }));
        }
      }
      // What the scavenger copies for it (a run with a survivors pass).
      for (const fn of file.survivorFunctions) {
        const range = at(fn.line, fn.column);
        if (range) {
          lenses.push(new vscode.CodeLens(range, { ...asCommand(Commands.OpenReport, survivorLensTitle(fn), vscode.Uri.file(run.source)), tooltip: survivorLensTooltip(fn) }));
        }
      }
    }
    if (deopts && readSetting('annotations.showOptimized')) {
      for (const fn of file.optimizedFunctions) {
        const range = at(fn.line, fn.column);
        if (range) lenses.push(new vscode.CodeLens(range, { title: optimizedLensTitle(fn), command: '' }));
      }
    }
    return lenses;
  }
}
