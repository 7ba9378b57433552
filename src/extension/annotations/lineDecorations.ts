/**
 * What sits on the lines: a dotted marker at each deopt position with the reason after the line
 * (like an inline diagnostic, not an error squiggle) and a hover that explains it; a gutter heat
 * mark on every sampled line and its self time after the hot ones; on an allocating function's
 * first line, a hover with what its allocations cost and the usual fixes (its CodeLens's tooltip
 * can only be plain text).
 */
import * as vscode from 'vscode';
import type { AllocFunctionLens, AllocRunFacts, DeoptSite, FileAnnotations, HeatLine } from '../../core/annotations/annotationTypes';
import { allocHoverMarkdown, deoptSiteText, formatMs, formatShare, heatText, siteWhen } from '../../core/annotations/annotationText';
import type { AnnotationStore } from './annotationStore';
import { runLabel } from './runLabel';

const LEVELS = [1, 2, 3, 4, 5] as const;
const AFTER_MARGIN = '0 0 0 1.5em';
/** Lines longer than this get no after-line heat text (see where it is drawn). */
const LONG_LINE = 90;

export class LineDecorations implements vscode.Disposable {
  private readonly deoptMarker: vscode.TextEditorDecorationType;
  private readonly harmlessMarker: vscode.TextEditorDecorationType;
  private readonly deoptText: vscode.TextEditorDecorationType;
  private readonly harmlessText: vscode.TextEditorDecorationType;
  private readonly heatText: vscode.TextEditorDecorationType;
  private readonly heatGutter: Map<number, vscode.TextEditorDecorationType>;
  /** Draws nothing: it only carries the allocation hover. */
  private readonly allocHover: vscode.TextEditorDecorationType;
  private readonly disposables: vscode.Disposable[] = [];
  private pending: NodeJS.Timeout | undefined;

  constructor(extensionUri: vscode.Uri, private readonly store: AnnotationStore) {
    const marker = (color: string) =>
      vscode.window.createTextEditorDecorationType({
        borderStyle: 'none none dotted none',
        borderWidth: '0 0 2px 0',
        borderColor: new vscode.ThemeColor(color),
        overviewRulerColor: new vscode.ThemeColor(color),
        overviewRulerLane: vscode.OverviewRulerLane.Right,
        rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
      });
    const after = (color: string, fontStyle = 'normal') =>
      vscode.window.createTextEditorDecorationType({
        after: { color: new vscode.ThemeColor(color), margin: AFTER_MARGIN, fontStyle },
        rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
      });
    this.deoptMarker = marker('editorWarning.foreground');
    this.harmlessMarker = marker('editorInfo.foreground');
    this.deoptText = after('editorWarning.foreground');
    this.harmlessText = after('editorCodeLens.foreground', 'italic');
    this.heatText = after('editorCodeLens.foreground');
    this.heatGutter = new Map(LEVELS.map((level) => [level, vscode.window.createTextEditorDecorationType({
      gutterIconPath: vscode.Uri.joinPath(extensionUri, 'media', 'heat', `heat-${level}.svg`),
      gutterIconSize: 'contain',
      overviewRulerColor: level >= 4 ? new vscode.ThemeColor('editorError.foreground') : undefined,
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    })]));
    this.allocHover = vscode.window.createTextEditorDecorationType({ rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed });
    this.disposables.push(
      store.onDidChange(() => this.schedule()),
      vscode.window.onDidChangeVisibleTextEditors(() => this.schedule()),
    );
    this.schedule();
  }

  /** Edits arrive per keystroke: redraw once they pause. */
  private schedule(): void {
    clearTimeout(this.pending);
    this.pending = setTimeout(() => void this.renderAll(), 50);
  }

  private async renderAll(): Promise<void> {
    for (const editor of vscode.window.visibleTextEditors) await this.render(editor);
  }

  private async render(editor: vscode.TextEditor): Promise<void> {
    const shown = await this.store.forDocument(editor.document);
    const run = this.store.current;
    const { deopts, heat, alloc } = this.store.settings;
    const file = shown.state === 'shown' && run ? shown.file : null;
    const line = shown.state === 'shown' ? shown.line : () => null;
    const doc = editor.document;
    const lineRange = (recorded: number): vscode.Range | null => {
      const l = line(recorded);
      if (l === null || l > doc.lineCount) return null;
      return doc.lineAt(l - 1).range;
    };

    const markers: vscode.DecorationOptions[] = [];
    const harmlessMarkers: vscode.DecorationOptions[] = [];
    const texts: vscode.DecorationOptions[] = [];
    const harmlessTexts: vscode.DecorationOptions[] = [];
    if (file && deopts && run) {
      for (const [recorded, sites] of sitesByLine(file)) {
        const range = lineRange(recorded);
        if (!range) continue;
        const hover = deoptHover(sites, runLabel(run));
        const allHarmless = sites.every((s) => s.harmless);
        (allHarmless ? harmlessTexts : texts).push({ range, hoverMessage: hover, renderOptions: { after: { contentText: deoptSiteText(sites) } } });
        for (const site of sites) {
          const column = Math.min(Math.max(site.column - 1, 0), Math.max(range.end.character - 1, 0));
          const mark = new vscode.Range(range.start.line, column, range.start.line, Math.min(column + 1, range.end.character));
          (site.harmless ? harmlessMarkers : markers).push({ range: mark, hoverMessage: hover });
        }
      }
    }
    const gutters = new Map<number, vscode.DecorationOptions[]>(LEVELS.map((l) => [l, []]));
    const heatTexts: vscode.DecorationOptions[] = [];
    if (file && heat && run) {
      for (const h of file.heatLines) {
        const range = lineRange(h.line);
        if (!range) continue;
        const hoverMessage = heatHover(h, runLabel(run));
        gutters.get(h.level)!.push({ range: new vscode.Range(range.start, range.start), hoverMessage });
        // A long line would push the text past the editor's edge, cut ("189 m"): the gutter mark and its hover say it there.
        if (h.labeled && range.end.character <= LONG_LINE) heatTexts.push({ range, hoverMessage, renderOptions: { after: { contentText: heatText(h) } } });
      }
    }
    const allocHovers: vscode.DecorationOptions[] = [];
    if (file && alloc && run?.alloc) {
      for (const fn of file.allocFunctions) {
        const range = lineRange(fn.line);
        if (range) allocHovers.push({ range, hoverMessage: allocHover(fn, run.alloc, runLabel(run)) });
      }
    }
    editor.setDecorations(this.deoptMarker, markers);
    editor.setDecorations(this.harmlessMarker, harmlessMarkers);
    editor.setDecorations(this.deoptText, texts);
    editor.setDecorations(this.harmlessText, harmlessTexts);
    editor.setDecorations(this.heatText, heatTexts);
    for (const [level, type] of this.heatGutter) editor.setDecorations(type, gutters.get(level)!);
    editor.setDecorations(this.allocHover, allocHovers);
  }

  dispose(): void {
    clearTimeout(this.pending);
    for (const d of this.disposables.splice(0)) d.dispose();
    for (const t of [this.deoptMarker, this.harmlessMarker, this.deoptText, this.harmlessText, this.heatText, this.allocHover, ...this.heatGutter.values()]) t.dispose();
  }
}

/** Sites grouped by line, the ones worth fixing first. */
function sitesByLine(file: FileAnnotations): Map<number, DeoptSite[]> {
  const byLine = new Map<number, DeoptSite[]>();
  for (const site of file.deoptSites) {
    const list = byLine.get(site.line) ?? [];
    list.push(site);
    byLine.set(site.line, list);
  }
  for (const list of byLine.values()) list.sort((a, b) => Number(a.harmless) - Number(b.harmless) || b.count - a.count);
  return byLine;
}

/** Function names and paths are data: they go in as text, never as markdown. */
function deoptHover(sites: readonly DeoptSite[], run: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.isTrusted = false;
  md.supportHtml = false;
  sites.forEach((site, i) => {
    if (i > 0) md.appendMarkdown('\n\n---\n\n');
    md.appendMarkdown(`**V8 Lens · deopt: `);
    md.appendText(site.reason);
    md.appendMarkdown(`**${site.count > 1 ? ` ×${site.count}` : ''}${site.harmless ? ' · _usually harmless_' : ''}\n\n`);
    md.appendText(site.explanation);
    md.appendMarkdown('\n\n**What usually fixes it:** ');
    md.appendText(site.fix);
    md.appendMarkdown('\n\n');
    const details = [`in ${site.function}`];
    if (site.optimizedFunction !== site.function) details.push(`inlined into the optimized code of ${site.optimizedFunction}`);
    details.push(`${site.kind}${site.tier ? ` · ${site.tier}` : ''}`);
    const when = siteWhen(site);
    if (when) details.push(when);
    md.appendText(details.join(' · '));
    if (site.tiers) {
      md.appendMarkdown('\n\n**Tiers:** ');
      md.appendText(site.tiers);
    }
    if (site.inlinedAt.length > 0) {
      md.appendMarkdown('\n\n');
      md.appendText(`Inlined at ${site.inlinedAt.map((p) => `${shortPath(p.path)}:${p.line}:${p.column}`).join(' ← ')}`);
    }
    if (site.generated) {
      md.appendMarkdown('\n\n');
      md.appendText(`V8 saw it at ${shortPath(site.generated.path)}:${site.generated.line}:${site.generated.column} (mapped through its source map)`);
    }
  });
  md.appendMarkdown('\n\n');
  md.appendText(`From ${run}.`);
  return md;
}

function heatHover(h: HeatLine, run: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.isTrusted = false;
  md.appendMarkdown(`**V8 Lens · ${formatMs(h.selfMs)} self time** on this line, ${formatShare(h.share)} of the profile\n\n`);
  md.appendText(`Time V8 sampled while running this line's own code (not the functions it calls), in ${run}.`);
  return md;
}

/** Built in core (escaped there); links and HTML stay off. */
function allocHover(fn: AllocFunctionLens, facts: AllocRunFacts, run: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString(allocHoverMarkdown(fn, facts, run));
  md.isTrusted = false;
  md.supportHtml = false;
  return md;
}

function shortPath(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts.slice(-2).join('/');
}
