/**
 * Which run the editor annotates (the report opened last in this workspace), whether deopts, heat
 * and allocations are on, and, per document, how its lines moved since: the state the CodeLens provider,
 * the decorations and the status bar render.
 */
import { stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import * as vscode from 'vscode';
import type { FileAnnotations, RunAnnotations } from '../../core/annotations/annotationTypes';
import { buildAnnotations } from '../../core/annotations/buildAnnotations';
import { shiftLines, type LineEdit } from '../../core/annotations/lineShift';
import { pathKey } from '../../core/annotations/sourcePaths';
import { loadReport } from '../../core/report/loadReport';
import { readSessionRecord } from '../../core/run/runRecords';
import { SourceMapResolver } from '../../core/sourcemap/sourceMapResolver';
import type { Summary } from '../../shared/model/summary';
import { errorMessage } from '../../core/util/errors';
import { ContextKeys, StateKeys, readSetting, setContext, settingName } from '../contract';

export interface AnnotationToggles {
  /** All annotations; the status bar's "turn off". */
  enabled: boolean;
  deopts: boolean;
  heat: boolean;
  /** Allocation lenses (runs that sampled allocations). */
  alloc: boolean;
}

/** What a document shows: its annotations with lines moved by the edits since, or why none. */
export type DocumentAnnotations =
  | { state: 'none' }
  | { state: 'stale'; fileChangedAt: number }
  | { state: 'shown'; file: FileAnnotations; line: (recorded: number) => number | null };

interface DocumentState {
  edits: LineEdit[];
  /** The file on disk changed after the run, before we saw it: positions may be wrong. */
  staleSince: number | null;
  showAnyway: boolean;
}

export class AnnotationStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private source: string | null;
  private toggles: AnnotationToggles;
  private loading: Promise<RunAnnotations | null> | null = null;
  private annotations: RunAnnotations | null = null;
  private readonly documents = new Map<string, DocumentState>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly state: vscode.Memento) {
    this.source = state.get<string>(StateKeys.AnnotatedRun) ?? null;
    this.toggles = { enabled: true, deopts: true, heat: true, alloc: true, ...state.get<Partial<AnnotationToggles>>(StateKeys.AnnotationToggles) };
    this.disposables.push(
      vscode.workspace.onDidChangeTextDocument((e) => this.recordEdits(e)),
      vscode.workspace.onDidCloseTextDocument((d) => this.documents.delete(documentKey(d) ?? '')),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(settingName('annotations'))) this.reload();
      }),
    );
    void this.updateContext();
  }

  get runSource(): string | null {
    return this.source;
  }

  get current(): RunAnnotations | null {
    return this.annotations;
  }

  get settings(): Readonly<AnnotationToggles> {
    return this.toggles;
  }

  /** The report opened last becomes the annotated run. */
  async show(source: string): Promise<void> {
    this.source = source;
    this.toggles.enabled = true;
    await this.state.update(StateKeys.AnnotatedRun, source);
    await this.state.update(StateKeys.AnnotationToggles, this.toggles);
    this.reload();
    await this.load();
  }

  async setToggles(next: Partial<AnnotationToggles>): Promise<void> {
    this.toggles = { ...this.toggles, ...next };
    await this.state.update(StateKeys.AnnotationToggles, this.toggles);
    void this.updateContext();
    this.changed.fire();
  }

  /** Draw on a stale file anyway (the user knows what changed). */
  showAnyway(document: vscode.TextDocument): void {
    const s = this.documentState(document);
    if (s) s.showAnyway = true;
    this.changed.fire();
  }

  /** The run's annotations, read on first use (a summary can be several MB). */
  load(): Promise<RunAnnotations | null> {
    if (this.annotations || !this.source) return Promise.resolve(this.annotations);
    this.loading ??= this.build(this.source).finally(() => (this.loading = null));
    return this.loading;
  }

  async forDocument(document: vscode.TextDocument): Promise<DocumentAnnotations> {
    if (!this.toggles.enabled) return { state: 'none' };
    const key = documentKey(document);
    if (key === null) return { state: 'none' };
    const run = await this.load();
    const file = run?.files.get(key);
    if (!run || !file) return { state: 'none' };
    const doc = this.documentState(document)!;
    if (doc.staleSince === null && doc.edits.length === 0 && !document.isDirty && run.capturedAt !== null) {
      const mtime = (await stat(document.uri.fsPath).catch(() => null))?.mtimeMs ?? 0;
      // A second of slack: editors save right before a run is started.
      if (mtime > run.capturedAt + 1000) doc.staleSince = mtime;
    }
    if (doc.staleSince !== null && !doc.showAnyway) return { state: 'stale', fileChangedAt: doc.staleSince };
    const edits = doc.edits;
    return { state: 'shown', file, line: edits.length === 0 ? (l) => l : (l) => shiftLines(l, edits) };
  }

  private documentState(document: vscode.TextDocument): DocumentState | null {
    const key = documentKey(document);
    if (key === null) return null;
    let s = this.documents.get(key);
    if (!s) this.documents.set(key, (s = { edits: [], staleSince: null, showAnyway: false }));
    return s;
  }

  private recordEdits(e: vscode.TextDocumentChangeEvent): void {
    if (e.contentChanges.length === 0 || !this.annotations) return;
    const key = documentKey(e.document);
    if (key === null || !this.annotations.files.has(key)) return;
    const s = this.documentState(e.document)!;
    for (const c of e.contentChanges) {
      s.edits.push({ startLine: c.range.start.line + 1, endLine: c.range.end.line + 1, newLineCount: c.text.split('\n').length });
    }
    this.changed.fire();
  }

  private reload(): void {
    this.annotations = null;
    this.documents.clear();
    void this.updateContext();
    this.changed.fire();
  }

  private async build(source: string): Promise<RunAnnotations | null> {
    try {
      const summary = await loadReport(source);
      const resolver = new SourceMapResolver();
      const annotations = await buildAnnotations(summary, {
        source,
        capturedAt: await capturedAt(source, summary),
        roots: [...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath), dirname(source)],
        resolver,
        thresholds: {
          heatMinMs: readSetting('annotations.heatMinMs'),
          heatMinPercent: readSetting('annotations.heatMinPercent'),
          hotFunctionMinPercent: readSetting('annotations.hotFunctionMinPercent'),
          allocMinPercent: readSetting('annotations.allocMinPercent'),
        },
      });
      if (this.source !== source) return null; // switched meanwhile
      this.annotations = annotations;
      void this.updateContext();
      this.changed.fire();
      return annotations;
    } catch (err) {
      void vscode.window.showWarningMessage(`V8 Lens: no annotations from ${basename(source)}: ${errorMessage(err)}`);
      return null;
    }
  }

  private updateContext(): Thenable<unknown> {
    return setContext(ContextKeys.AnnotationsShown, this.toggles.enabled && this.source !== null);
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.changed.dispose();
  }
}

/** Documents we can annotate: files on the machine the extension runs on (local or remote). */
export function documentKey(document: vscode.TextDocument): string | null {
  const { scheme } = document.uri;
  if (scheme !== 'file' && scheme !== 'vscode-remote') return null;
  return pathKey(document.uri.fsPath);
}

/** When the profiled code ran: a run's start, or a profile file's write time less its duration. */
async function capturedAt(source: string, summary: Summary): Promise<number | null> {
  const info = await stat(source).catch(() => null);
  if (!info) return null;
  if (info.isDirectory()) {
    const session = (await readSessionRecord(source)).value;
    return session ? Date.parse(session.startedAt) : info.mtimeMs;
  }
  return info.mtimeMs - (summary.cpu?.durationMs ?? 0);
}
