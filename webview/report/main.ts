/**
 * The V8 Lens report webview (bundled to dist/webview/report.js + report.css). It posts `ready`,
 * receives `{ type: 'model' }` (src/shared/reportProtocol.ts) and renders one run: header, flame
 * graph, GC timeline, hot functions and deopts. Everything from the model reaches the page as
 * text (textContent / setAttribute); see ../common/dom.ts.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { parseToReportWebview, type FlameNode, type FromReportWebview, type LiveAttachStatus, type ReportModel, type ToReportWebview } from '../../src/shared/reportProtocol';
import { clear, el, emptyNote } from '../common/dom';
import type { LocationContext } from '../common/format';
import { connectHost } from '../common/host';
import { onThemeChange, readPalette } from '../common/theme';
import { renderAllocPanel } from './allocPanel';
import { renderSurvivorsPanel } from './survivorsPanel';
import { renderPredictionPanel } from './predictionPanel';
import { CPU_TIME_IN_RANGE, LIVE_BYTES, SURVIVOR_BYTES, type FlameView } from './flameGraph';
import { renderFlameTabs, type FlameTab, type FlameTabsInput } from './flameTabs';
import { renderGcSection, type GcView } from './gcTimeline';
import { renderHeader } from './header';
import { renderLoadSection } from './loadFigures';
import { ALL_PROCESSES, defaultProcessId, modelForProcess, renderProcessPicker } from './processPicker';
import { missingDeopts, missingFlame, missingGc } from './missing';
import { renderDeopts, renderHotFunctions } from './tables';
import { renderTierSection, tierMarks } from './tiers';
import { renderCpuViewBar, renderTableView, topDown, type CpuViewInput, type CpuViewState } from './cpuViews';
import { renderFlameChart, type FlameChartView, type TimeRange } from './flameChart';
import { ProfileIndex } from '../../src/shared/profile/profileIndex';
import { packedSpanCount, unpackSpans, unpackTimeProfileHead } from '../../src/shared/profile/unpackTimeProfile';
import { functionTimes } from '../../src/shared/profile/functionTimes';
import { DRAW_MIN_SHARE } from '../../src/shared/profile/pruneForDrawing';
import { drawnTreeFromCode } from '../../src/shared/profile/profileTrees';
import type { TimeProfile } from '../../src/shared/model/timeProfile';
import { fmtDuration, fmtMs, fmtNum } from '../common/format';
// Our stylesheet, after the web components' own.
import '../common/report.css';

const app = document.getElementById('app') ?? document.body.appendChild(el('div', { id: 'app' }));
const status = el('p', { id: 'report-status', attrs: { 'aria-live': 'polite' }, text: 'Loading report…' });
app.append(status);

let views: { flame: FlameView | null; gc: GcView | null; chart: FlameChartView | null } = { flame: null, gc: null, chart: null };
/** The selected time range (on the GC timeline's axis), kept across redraws of the same process. */
let range: TimeRange | null = null;
let cpuState: CpuViewState = { mode: 'flame', collapse: { dependencies: false, nodeInternals: false }, sandwichFn: null };
/** The GC chart's zoomed window, restored when a selection redraws the page. */
let gcWindow: TimeRange | null = null;
const indexes = new WeakMap<TimeProfile, ProfileIndex>();
let lastModel: ReportModel | null = null;
/** Which process of a multi-process run is shown ("all": the whole run); kept across redraws. */
let selectedProcess = ALL_PROCESSES;
/** Which flame graph is shown: CPU time or allocated bytes; kept across redraws. */
let flameTab: FlameTab = 'cpu';
let themeHooked = false;

let liveRendered = false;

const host = connectHost<ToReportWebview, FromReportWebview>(parseToReportWebview, (message) => {
  if (message.type === 'status') {
    status.textContent = message.text;
    return;
  }
  if (message.type === 'live') {
    try {
      const model = unpackHeads(message.model);
      unpackAllSpans(model);
      renderLive(model, message.live);
    } catch (err) {
      showError(err);
    }
    return;
  }
  liveRendered = false;
  const received = performance.now();
  let model: ReportModel;
  try {
    model = unpackHeads(message.model);
  } catch (err) {
    showError(err);
    return;
  }
  // The flame graph is drawn and painted first, from each node's self time; the spans are decoded
  // and the sections below it drawn in the next task (in an exported report, once it is parsed).
  render(model, () => {
    // First paint of the flame graph after the model arrived, for measurements and tests.
    document.documentElement.setAttribute('data-first-paint-ms', String(Math.round(performance.now() - received)));
    // Since navigation began: what a bare page that only parses the same data is compared with (npm run bench).
    document.documentElement.setAttribute('data-first-paint-at', String(Math.round(performance.now())));
  });
});

/**
 * The model with its time-ordered profiles' functions, nodes and self times unpacked, the spans
 * still packed (see modelForPage in core/report/reportModel.ts): all the flame graph needs.
 */
function unpackHeads(model: ReportModel): ReportModel {
  const head = (tp: ReportModel['timeProfile']) => (tp ? unpackTimeProfileHead(tp) : tp);
  return { ...model, timeProfile: head(model.timeProfile), ...(model.processes ? { processes: model.processes.map((v) => ({ ...v, timeProfile: head(v.timeProfile) })) } : {}) };
}

/** Puts the spans into every time-ordered profile of `model` that still has them packed; whether any had. */
function unpackAllSpans(model: ReportModel): boolean {
  let any = false;
  if (model.timeProfile?.packed) {
    model.timeProfile = unpackSpans(spansFromPage(model.timeProfile));
    any = true;
  }
  for (const v of model.processes ?? []) {
    if (!v.timeProfile?.packed) continue;
    v.timeProfile = unpackSpans(spansFromPage(v.timeProfile));
    any = true;
  }
  return any;
}

/**
 * An exported report's spans, from the element after the script that holds them (PackedArrays.spansIn);
 * call once the document is parsed (whenParsed). A webview's come in its message.
 */
function spansFromPage(tp: TimeProfile): TimeProfile {
  const where = tp.packed?.spansIn;
  if (!tp.packed || !where || tp.packed.spans !== '') return tp;
  const text = document.getElementById(where.id)?.textContent ?? '';
  return { ...tp, packed: { ...tp.packed, spans: text } };
}

/** Runs `then` once the whole document is parsed: at once in a webview, after the spans in an exported report. */
function whenParsed(then: () => void): void {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', then, { once: true });
  else then();
}
document.documentElement.toggleAttribute('data-connected', host.connected);
host.post({ type: 'ready' });

/** Counts renders: a deferred half of an older one must not draw into a page drawn again since. */
let renderCount = 0;

/**
 * Draws the report. With `painted`, only the header and the flame graph are drawn now; `painted`
 * runs once they are on screen and the other sections follow in the same task (a big profile's
 * timeline and tables no longer hold back the flame graph). Redraws after a user's pick are whole.
 */
function render(full: ReportModel, painted?: () => void): void {
  const generation = ++renderCount;
  document.documentElement.removeAttribute('data-report-ready');
  views.gc?.destroy?.();
  if (full !== lastModel) {
    // A new run (or a re-sent one): its own range and picks.
    range = null;
    gcWindow = null;
    cpuState = { ...cpuState, sandwichFn: null };
    // A heap profile alone opens on what it has.
    if (full.flame === null && !full.timeProfile && full.allocFlame) flameTab = 'alloc';
    // Another run opens where its work is (a pool's busiest thread, else "all"); a re-sent one keeps the pick.
    if (lastModel === null || full.source !== lastModel.source) selectedProcess = defaultProcessId(full);
    lastModel = full;
  }
  const scrollY = window.scrollY;
  clear(app);
  if (!full.processes?.some((v) => v.id === selectedProcess)) selectedProcess = ALL_PROCESSES;
  let model = modelForProcess(full, selectedProcess);
  const loc: LocationContext = { cwd: model.session?.target.cwd ?? null };
  const header = el('header', { id: 'report-header' });
  app.append(header);
  renderHeader(header, model, host);
  app.append(status);
  status.textContent = '';

  if ((full.processes?.length ?? 0) > 1) {
    const picker = el('section', { id: 'process-section', className: 'panel', attrs: { 'aria-label': 'Processes and threads' } });
    renderProcessPicker(picker, full, selectedProcess, (id) => {
      selectedProcess = id;
      range = null;
      gcWindow = null;
      cpuState = { ...cpuState, sandwichFn: null };
      render(full);
      document.querySelector<HTMLElement>(`#process-table tr[data-process-id="${CSS.escape(id)}"] button`)?.focus();
    });
    app.append(picker);
  }

  if (model.summary.load) {
    const loadSection = el('section', { id: 'load-section', className: 'panel', attrs: { 'aria-label': 'Under load' } });
    renderLoadSection(loadSection, model.summary.load);
    app.append(loadSection);
  }
  const flameSection = el('section', { id: 'flame-section', className: 'panel', attrs: { 'aria-label': 'CPU flame graph' } });
  const gcSection = el('section', { id: 'gc-section', className: 'panel', attrs: { 'aria-label': 'Garbage collection' } });
  const hotSection = el('section', { id: 'hot-section', className: 'panel', attrs: { 'aria-label': 'Hot functions' } });
  const timelineSection = el('section', { id: 'timeline-section', className: 'panel', attrs: { 'aria-label': 'CPU over time' } });
  const tierSection = el('section', { id: 'tier-section', className: 'panel', attrs: { 'aria-label': 'Tiers' } });
  const deoptSection = el('section', { id: 'deopt-section', className: 'panel', attrs: { 'aria-label': 'Deopts' } });
  // What a bigger young generation would do: from a run's GC trace, for the whole run.
  const predictionSection = full.summary.source.kind === 'run' && full.summary.gc ? el('section', { id: 'prediction-section', className: 'panel', attrs: { 'aria-label': 'A bigger young generation' } }) : null;
  // Only a run folder can have sampled allocations: a single file has nothing to say about them.
  // A run says whether it sampled allocations; a heap profile or pprof on its own has nothing else to show.
  const allocSection = model.summary.source.kind === 'run' || model.summary.alloc ? el('section', { id: 'alloc-section', className: 'panel', attrs: { 'aria-label': 'GC and allocations' } }) : null;
  app.append(el('main', {}, flameSection, gcSection, predictionSection, timelineSection, allocSection, hotSection, tierSection, deoptSection));

  const palette = readPalette();
  let cpu = cpuInput(model, loc);
  const picked = pickedLabel(full);
  // The first paint draws the coarser first tree when the host sent one; the whole one follows.
  const firstTree = painted !== undefined && (model.timeProfile?.firstTree?.length ?? 0) > 0;
  views = { flame: timed('v8-lens:flame', () => drawFlame(flameSection, model, loc, palette, picked, cpu, () => render(full), firstTree)), gc: null, chart: null };
  const rest = () => {
    if (generation !== renderCount) return;
    const spanned = cpu;
    const time = spanned ? timed('v8-lens:flame-chart', () => timeline(timelineSection, spanned, model, loc, palette)) : null;
    if (!cpu) renderNoTimeline(timelineSection, full);
    views = {
      flame: views.flame,
      gc: timed('v8-lens:gc', () => renderGcSection(gcSection, model.summary.gc, model.gcEvents, missingGc(model), palette, model.gcClock ?? 'isolate', time?.gc ?? null)),
      chart: time?.chart ?? null,
    };
    if (gcWindow && views.gc?.zoomTo) views.gc.zoomTo(gcWindow.fromMs, gcWindow.toMs);
    if (time && !time.gc) timed('v8-lens:flame-chart-draw', () => time.ownAxis());
    timed('v8-lens:tables', () => {
      if (allocSection) renderAllocPanel(allocSection, model.summary.alloc, host, loc, model.summary.allocMissing);
      if (allocSection && model.summary.survivors) renderSurvivorsPanel(allocSection, model.summary.survivors, host, loc, picked !== null);
      if (predictionSection) renderPredictionPanel(predictionSection, full.summary.prediction, full.summary.predictionMissing, host);
      const hotCpu = cpu && model.summary.cpu ? { ...model.summary.cpu, functions: functionTimes(cpu.index, cpu.selfUs), durationMs: cpu.wholeMs } : model.summary.cpu;
      renderHotFunctions(hotSection, hotCpu, missingFlame(model), host, loc, cpu ? { text: cpu.scopeText, sandwich: (fn) => pickSandwich(fn, full) } : null);
      renderTierSection(tierSection, model.summary.tierHistory, missingTiers(model), host, loc, model.loadWindow?.rps ?? []);
      renderDeopts(deoptSection, model.summary.deopts, missingDeopts(model), host, loc);
    });
    // One process picked: every section says whose figures it shows.
    if (picked !== null) {
      for (const h of [flameSection, gcSection, allocSection, hotSection, tierSection, deoptSection].map((s) => s?.querySelector('h2'))) {
        h?.append(processOf(picked));
      }
    }
    document.documentElement.setAttribute('data-report-ready', 'true');
    document.documentElement.toggleAttribute('data-range', range !== null);
    window.scrollTo({ top: scrollY });
  };
  // The spans, megabytes on a long profile, once the flame graph is on screen (and, in an exported
  // report, once the browser has parsed them: they come after the script).
  const withSpans = (drawWhole: boolean) =>
    whenParsed(() => {
      if (generation !== renderCount) return;
      try {
        if (timed('v8-lens:spans', () => unpackAllSpans(full))) {
          model = modelForProcess(full, selectedProcess);
          cpu = cpuInput(model, loc);
        }
        if (drawWhole) {
          // The whole flame graph, frames too narrow to see unzoomed included, in place of the first one.
          clear(flameSection);
          views.flame = timed('v8-lens:flame-whole', () => drawFlame(flameSection, model, loc, palette, picked, cpu, () => render(full)));
        }
      } catch (err) {
        showError(err);
        return;
      }
      rest();
    });
  if (painted) {
    // rAF runs before the frame is painted; a task queued from it runs after.
    requestAnimationFrame(() =>
      setTimeout(() => {
        if (generation !== renderCount) return;
        painted();
        withSpans(firstTree);
      }, 0),
    );
  } else withSpans(false);

  if (!themeHooked) {
    themeHooked = true;
    onThemeChange(() => {
      const next = readPalette();
      views.flame?.applyTheme(next);
      views.gc?.applyTheme(next);
      views.chart?.applyTheme(next);
    });
  }
}

/** The label of the one process picked; null for the whole run. */
function pickedLabel(full: ReportModel): string | null {
  return full.processes?.find((v) => v.id === selectedProcess)?.label ?? null;
}

/** " · worker · pid 4121" after a section's title: whose figures it shows. */
function processOf(label: string): HTMLElement {
  return el('span', { className: 'process-of', text: ` · ${label}` });
}

/** The flame section with its tabs; picking a tab redraws this section alone. */
function drawFlame(section: HTMLElement, model: ReportModel, loc: LocationContext, palette: ReturnType<typeof readPalette>, picked: string | null, cpu: CpuInput | null, redraw: () => void, firstPaint = false): FlameView | null {
  // Frames too narrow to draw even zoomed in are merged as the tree is built (the tables and views keep them all).
  const totals = new Map<FlameNode, number>();
  const tree = cpu ? drawnFlame(model, cpu, totals, firstPaint) ?? topDown(cpu, DRAW_MIN_SHARE, totals) : model.flame;
  const input: FlameTabsInput = { cpu: tree, ...(cpu ? { cpuTotals: totals } : {}), cpuMissing: missingFlame(model), alloc: model.allocFlame ?? null, survivors: model.survivorsFlame ?? null, ...(range ? { cpuUnit: CPU_TIME_IN_RANGE } : {}), ...(model.summary.alloc?.liveOnly ? { allocUnit: LIVE_BYTES } : model.summary.alloc?.mode === 'survivors' ? { allocUnit: SURVIVOR_BYTES } : {}) };
  if (cpu) {
    const bar = renderCpuViewBar(cpuState, range ? cpu.scopeText : null, (next) => {
      cpuState = next;
      redraw();
    });
    input.cpuViews = { bar, table: cpuState.mode === 'flame' ? null : { title: cpuState.mode === 'bottom-up' ? 'CPU: bottom-up' : 'CPU: callers & callees', draw: (c) => renderTableView(c, cpu) } };
  }
  if ((flameTab === 'alloc' && input.alloc === null) || (flameTab === 'survivors' && !input.survivors)) flameTab = 'cpu';
  const view = renderFlameTabs(section, input, flameTab, (tab) => {
    flameTab = tab;
    clear(section);
    views.flame = drawFlame(section, model, loc, readPalette(), picked, cpu, redraw);
    if (picked !== null) section.querySelector('h2')?.append(processOf(picked));
    document.getElementById(`flame-tab-${tab}`)?.focus();
  }, host, loc, palette);
  if (!cpu && flameTab === 'cpu') allViewsNote(section, model);
  return view;
}

/**
 * "All" of a multi-process run draws every process under one root, but the bottom-up, callers &
 * callees and folding views and the CPU-over-time strip work on one profile (one clock) at a time:
 * said where they would be, not left to be guessed.
 */
function allViewsNote(section: HTMLElement, model: ReportModel): void {
  if (!model.processes?.some((v) => v.timeProfile)) return;
  const note = el('p', { id: 'all-views-note', className: 'hint', text: 'Bottom-up, callers & callees, folding and CPU over time work on one process or thread at a time (each has its own profile and clock): pick one in the table above.' });
  const heading = section.querySelector('h2');
  if (heading) heading.after(note);
  else section.prepend(note);
}

/**
 * The flame graph the host described when it packed the profile, with its totals into `totals`:
 * the same tree topDown builds for the whole profile with nothing folded, rebuilt from a few
 * thousand numbers instead of every node. Null for a range or a fold.
 */
function drawnFlame(model: ReportModel, cpu: CpuInput, totals: Map<FlameNode, number>, firstPaint: boolean): FlameNode | null {
  const code = (firstPaint ? model.timeProfile?.firstTree : undefined) ?? model.timeProfile?.drawnTree;
  if (!code || code.length === 0 || range !== null || cpuState.collapse.dependencies || cpuState.collapse.nodeInternals) return null;
  const tree = drawnTreeFromCode(cpu.index, cpu.selfUs, code, totals);
  if (tree === null) totals.clear();
  return tree;
}

/** What the CPU views need when the model has the profile in time order; null without one. */
interface CpuInput extends CpuViewInput {
  offsetMs: number;
  /** The CPU profile shares the GC timeline's axis. */
  aligned: boolean;
  /** "12.345–12.395 s selected (50.0 ms)", or the whole profile's length. */
  scopeText: string;
  clockNote: string;
}

function cpuInput(model: ReportModel, loc: LocationContext): CpuInput | null {
  const tp = model.timeProfile;
  if (!tp || (tp.packed ? packedSpanCount(tp) : tp.spanNode.length) === 0) return null;
  let index = indexes.get(tp);
  if (!index) indexes.set(tp, (index = new ProfileIndex(tp)));
  const aligned = tp.clockMs !== null;
  const offsetMs = tp.clockMs ?? 0;
  const selfUs = index.selfUs(range ? { fromUs: (range.fromMs - offsetMs) * 1000, toUs: (range.toMs - offsetMs) * 1000 } : null);
  const wholeMs = range ? range.toMs - range.fromMs : tp.durationUs / 1000;
  const scopeText = range ? `${fmtNum(range.fromMs / 1000, 3)}–${fmtNum(range.toMs / 1000, 3)} s selected (${fmtMs(wholeMs)})` : `${fmtDuration(wholeMs)} profiled`;
  return { index, selfUs, wholeMs, ranged: range !== null, state: cpuState, host, loc, offsetMs, aligned, scopeText, clockNote: tp.clockNote };
}

function setRange(next: TimeRange | null, full: ReportModel): void {
  range = next;
  render(full);
}

function pickSandwich(fn: number, full: ReportModel): void {
  cpuState = { ...cpuState, mode: 'sandwich', sandwichFn: fn };
  flameTab = 'cpu';
  render(full);
  document.getElementById('flame-section')?.scrollIntoView({ block: 'start' });
}

/** The CPU-over-time section: its flame chart and the range bar; wires the GC chart's axis to it. */
function timeline(section: HTMLElement, cpu: CpuInput, model: ReportModel, loc: LocationContext, palette: ReturnType<typeof readPalette>) {
  const full = lastModel!;
  // Tier markers share the axis only when the profile does (the same isolate clock).
  const marks = cpu.aligned ? tierMarks(model.summary.tierHistory, selectedProcess === ALL_PROCESSES ? null : selectedProcess) : [];
  section.append(el('h2', { text: 'CPU over time' }));
  const clearButton = el('vscode-button', { id: 'range-clear', attrs: { secondary: true, hidden: !range, title: 'Show the whole profile again' }, text: 'Clear selection' });
  const zoom = el('vscode-button', { id: 'range-zoom', attrs: { secondary: true, hidden: !range, title: 'Zoom both timelines to the selection' }, text: 'Zoom to selection' });
  const note = el('span', {
    id: 'range-status',
    className: 'toolbar-note',
    text: range ? `${cpu.scopeText}: the flame graph, hot functions${cpu.aligned ? ' and GC figures' : ''} show this range` : 'Drag across the chart to select a time range; click a box for its callers & callees',
  });
  section.append(el('div', { className: 'toolbar' }, note, el('span', { className: 'spacer' }), zoom, clearButton));
  const chart = renderFlameChart({
    index: cpu.index,
    collapse: cpuState.collapse,
    offsetMs: cpu.offsetMs,
    palette,
    range,
    onSelect: (r) => setRange(r, full),
    onPick: (fn) => pickSandwich(fn, full),
    bands: cpu.aligned && model.loadWindow ? [
      { label: 'warm-up', fromMs: model.loadWindow.warmupFromMs, toMs: model.loadWindow.fromMs },
      { label: 'measured window', fromMs: model.loadWindow.fromMs, toMs: model.loadWindow.toMs },
    ] : [],
    marks: marks.map((m) => ({ atMs: m.atMs, kind: m.event.kind, text: m.event.kind === 'deopt' ? `${m.fn.function}: deoptimized (${m.event.reason ?? 'no reason'})` : `${m.fn.function}: ${m.event.tier} code made` })),
    onMark: (i) => (marks[i]!.event.kind === 'deopt' ? showDeoptRow(marks[i]!.fn.function, marks[i]!.event.reason ?? '') : showTierRow(marks[i]!.fn.function)),
    host,
    loc,
  });
  section.append(chart.root, el('p', { className: 'hint clock-note', text: cpu.aligned ? `Same time axis as the GC timeline: the profile is ${cpu.clockNote}.` : `Time since the profile started: ${cpu.clockNote}.` }));
  clearButton.addEventListener('click', () => setRange(null, full));
  const gcShares = cpu.aligned && model.gcEvents.length > 0;
  zoom.addEventListener('click', () => {
    if (!range) return;
    const pad = (range.toMs - range.fromMs) * 0.25;
    if (gcShares && views.gc?.zoomTo) views.gc.zoomTo(range.fromMs - pad, range.toMs + pad);
    else chart.setView(range.fromMs - pad, range.toMs + pad, 0, chart.root.clientWidth);
  });
  const gc = gcShares
    ? {
        range,
        extent: chart.extent,
        onSelect: (r: TimeRange | null) => setRange(r, full),
        onView: (fromMs: number, toMs: number, left: number, width: number) => {
          gcWindow = { fromMs, toMs };
          chart.setView(fromMs, toMs, left, width);
        },
      }
    : null;
  return {
    chart,
    gc,
    /** Without a GC timeline to follow: the whole profile, across the section's width. */
    ownAxis() {
      const fit = () => chart.setView(chart.extent.fromMs, chart.extent.toMs, 0, Math.max(200, chart.root.clientWidth));
      fit();
      new ResizeObserver(fit).observe(chart.root);
    },
  };
}

/** Scrolls to a function's row in the tier table and marks it for a moment. */
function showTierRow(name: string): void {
  const row = document.querySelector<HTMLElement>(`#tier-table tr[data-function="${CSS.escape(name)}"]`);
  if (!row) return;
  row.scrollIntoView({ block: 'center' });
  row.classList.add('flash');
  setTimeout(() => row.classList.remove('flash'), 1500);
}

/** A deopt marker's row in the deopt table, opened at its source when the host can; else the tier row. */
function showDeoptRow(fn: string, reason: string): void {
  const row = document.querySelector<HTMLElement>(`#deopt-table tr[data-function="${CSS.escape(fn)}"][data-reason="${CSS.escape(reason)}"]`);
  if (!row) return showTierRow(fn);
  row.scrollIntoView({ block: 'center' });
  row.classList.add('flash');
  setTimeout(() => row.classList.remove('flash'), 1500);
  if (row.classList.contains('clickable')) row.click();
}

/** Why a run has no tier history. */
function missingTiers(model: ReportModel): string {
  if (model.summary.source.kind !== 'run') return 'a profile on its own has no record of V8’s optimizations; profile the program with the “CPU + GC trace + deopts” preset.';
  if (model.summary.deoptCoverage === 'not-collected') return 'this run has no code trace (it needs a direct launch with deopts: not an npm script, attach or the lab).';
  return 'the code trace recorded no optimization of the hot functions.';
}

/** No time-ordered profile for what is shown: why, in the timeline's place. */
function renderNoTimeline(section: HTMLElement, full: ReportModel): void {
  section.append(el('h2', { text: 'CPU over time' }));
  const perProcess = full.processes?.some((v) => v.timeProfile) && selectedProcess === ALL_PROCESSES;
  const why = perProcess
    ? 'each process and thread has its own clock: pick one in the table above to see its CPU over time, with the bottom-up and callers & callees views.'
    : full.summary.source.kind === 'pprof' && full.summary.cpu
      ? 'pprof keeps each stack’s total, not when it ran, so there is no time order to draw.'
      : full.summary.cpu === null && full.summary.alloc
        ? 'a heap profile has no CPU samples.'
        : 'the run has no CPU profile.';
  section.append(emptyNote('No timeline:', why));
}

/**
 * While attached: the first update draws the whole report (no CPU profile yet), later ones only
 * the GC section and the banner, so the page does not jump.
 */
function renderLive(model: ReportModel, live: LiveAttachStatus): void {
  if (!liveRendered) {
    render(model);
    liveRendered = true;
    document.getElementById('report-header')?.after(el('div', { id: 'live-status', className: 'live-status', attrs: { 'aria-live': 'polite' } }));
  } else {
    const section = document.getElementById('gc-section');
    if (section) {
      views.gc?.destroy?.();
      clear(section);
      views.gc = renderGcSection(section, model.summary.gc, model.gcEvents, missingGc(model), readPalette());
    }
  }
  const banner = document.getElementById('live-status');
  if (banner) {
    const heap = live.heapUsedMB === null ? '' : ` · heap used ${live.heapUsedMB.toFixed(1)} MB`;
    const what = live.state === 'profiling' ? 'profiling; the flame graph appears when you stop (V8 Lens: Stop & Collect)' : 'saving the profile…';
    banner.textContent = `● Live: attached to pid ${live.pid ?? '?'} · ${live.elapsedSeconds.toFixed(0)} s · ${live.gcEvents} GC events · ${live.scavenges} scavenges (${live.scavengesPerSecond.toFixed(1)}/s)${heap} · ${what}`;
    banner.setAttribute('data-gc-count', String(live.gcEvents));
    banner.setAttribute('data-scavenges', String(live.scavenges));
  }
}

/** Runs a render step under a performance measure (visible in the webview's devtools, read by tests). */
function timed<T>(name: string, fn: () => T): T {
  const start = performance.now();
  try {
    return fn();
  } finally {
    performance.measure(name, { start, end: performance.now() });
  }
}

function showError(err: unknown): void {
  const text = err instanceof Error ? `${err.message}` : String(err);
  status.textContent = `The report could not be drawn: ${text}`;
  status.classList.add('error');
  console.error(err);
}
