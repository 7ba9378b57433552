/**
 * The V8 Lens report webview (bundled to dist/webview/report.js + report.css). It posts `ready`,
 * receives `{ type: 'model' }` (src/shared/reportProtocol.ts) and renders one run: header, flame
 * graph, GC timeline, hot functions and deopts. Everything from the model reaches the page as
 * text (textContent / setAttribute); see ../common/dom.ts.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import { parseToReportWebview, type FromReportWebview, type LiveAttachStatus, type ReportModel, type ToReportWebview } from '../../src/shared/reportProtocol';
import { clear, el } from '../common/dom';
import type { LocationContext } from '../common/format';
import { connectHost } from '../common/host';
import { onThemeChange, readPalette } from '../common/theme';
import { renderAllocPanel } from './allocPanel';
import type { FlameView } from './flameGraph';
import { renderFlameTabs, type FlameTab } from './flameTabs';
import { renderGcSection, type GcView } from './gcTimeline';
import { renderHeader } from './header';
import { renderLoadSection } from './loadFigures';
import { ALL_PROCESSES, modelForProcess, renderProcessPicker } from './processPicker';
import { missingDeopts, missingFlame, missingGc } from './missing';
import { renderDeopts, renderHotFunctions } from './tables';
// Our stylesheet comes after d3-flame-graph's (imported by flameGraph.ts) so it overrides it.
import '../common/report.css';

const app = document.getElementById('app') ?? document.body.appendChild(el('div', { id: 'app' }));
const status = el('p', { id: 'report-status', attrs: { 'aria-live': 'polite' }, text: 'Loading report…' });
app.append(status);

let views: { flame: FlameView | null; gc: GcView | null } = { flame: null, gc: null };
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
      renderLive(message.model, message.live);
    } catch (err) {
      showError(err);
    }
    return;
  }
  liveRendered = false;
  try {
    const received = performance.now();
    render(message.model);
    // First paint after the model arrived (two frames: layout, then paint), for measurements and tests.
    requestAnimationFrame(() =>
      requestAnimationFrame(() => document.documentElement.setAttribute('data-first-paint-ms', String(Math.round(performance.now() - received)))),
    );
  } catch (err) {
    showError(err);
  }
});
document.documentElement.toggleAttribute('data-connected', host.connected);
host.post({ type: 'ready' });

function render(full: ReportModel): void {
  views.gc?.destroy?.();
  clear(app);
  if (!full.processes?.some((v) => v.id === selectedProcess)) selectedProcess = ALL_PROCESSES;
  const model = modelForProcess(full, selectedProcess);
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
  const deoptSection = el('section', { id: 'deopt-section', className: 'panel', attrs: { 'aria-label': 'Deopts' } });
  // Only a run folder can have sampled allocations: a single file has nothing to say about them.
  const allocSection = model.summary.source.kind === 'run' ? el('section', { id: 'alloc-section', className: 'panel', attrs: { 'aria-label': 'GC and allocations' } }) : null;
  app.append(el('main', {}, flameSection, gcSection, allocSection, hotSection, deoptSection));

  const palette = readPalette();
  views = {
    flame: timed('v8-lens:flame', () => drawFlame(flameSection, model, loc, palette, pickedLabel(full))),
    gc: timed('v8-lens:gc', () => renderGcSection(gcSection, model.summary.gc, model.gcEvents, missingGc(model), palette, model.gcClock ?? 'isolate')),
  };
  timed('v8-lens:tables', () => {
    if (allocSection) renderAllocPanel(allocSection, model.summary.alloc, host, loc);
    renderHotFunctions(hotSection, model.summary.cpu, missingFlame(model), host, loc);
    renderDeopts(deoptSection, model.summary.deopts, missingDeopts(model), host, loc);
  });
  // One process picked: every section says whose figures it shows.
  const picked = pickedLabel(full);
  if (picked !== null) {
    for (const h of [flameSection, gcSection, allocSection, hotSection, deoptSection].map((s) => s?.querySelector('h2'))) {
      h?.append(processOf(picked));
    }
  }
  document.documentElement.setAttribute('data-report-ready', 'true');

  if (!themeHooked) {
    themeHooked = true;
    onThemeChange(() => {
      const next = readPalette();
      views.flame?.applyTheme(next);
      views.gc?.applyTheme(next);
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
function drawFlame(section: HTMLElement, model: ReportModel, loc: LocationContext, palette: ReturnType<typeof readPalette>, picked: string | null): FlameView | null {
  const input = { cpu: model.flame, cpuMissing: missingFlame(model), alloc: model.allocFlame ?? null };
  if (input.alloc === null) flameTab = 'cpu';
  const view = renderFlameTabs(section, input, flameTab, (tab) => {
    flameTab = tab;
    clear(section);
    views.flame = drawFlame(section, model, loc, readPalette(), picked);
    if (picked !== null) section.querySelector('h2')?.append(processOf(picked));
    document.getElementById(`flame-tab-${tab}`)?.focus();
  }, host, loc, palette);
  return view;
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
