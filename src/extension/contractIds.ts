/**
 * The string contracts between package.json and the code, without a `vscode` import so a unit test
 * can hold them against the manifest: command IDs, context keys, view IDs and settings.
 */
import type { PresetId } from '../core/flags/presets';

export const Commands = {
  Profile: 'v8Lens.profile',
  Attach: 'v8Lens.attach',
  OpenReport: 'v8Lens.openReport',
  StopRun: 'v8Lens.stopRun',
  CancelRun: 'v8Lens.cancelRun',
  ExportReport: 'v8Lens.exportReport',
  RefreshSessions: 'v8Lens.sessions.refresh',
  OpenSession: 'v8Lens.sessions.open',
  RevealSession: 'v8Lens.sessions.reveal',
  DeleteSession: 'v8Lens.sessions.delete',
  CompareRuns: 'v8Lens.compareRuns',
  PickAnnotatedRun: 'v8Lens.annotations.pickRun',
  ToggleDeoptAnnotations: 'v8Lens.annotations.toggleDeopts',
  ToggleHeatAnnotations: 'v8Lens.annotations.toggleHeat',
  ShowDeoptSites: 'v8Lens.annotations.showDeopts',
  ShowStaleAnnotations: 'v8Lens.annotations.showAnyway',
} as const;
export type CommandId = (typeof Commands)[keyof typeof Commands];

export const ContextKeys = {
  /** A profiled run is in progress (enables Stop & Collect and Cancel). */
  Running: 'v8Lens.running',
  /** Source files carry a run's annotations (enables the toggles). */
  AnnotationsShown: 'v8Lens.annotationsShown',
} as const;
export type ContextKey = (typeof ContextKeys)[keyof typeof ContextKeys];

export const ViewIds = {
  Sessions: 'v8Lens.sessions',
  SemiSpaceLab: 'v8Lens.semiSpaceLab',
} as const;

export const REPORT_VIEW_TYPE = 'v8Lens.report';
export const OUTPUT_CHANNEL_NAME = 'V8 Lens';

/** The settings under `v8Lens.*`, with the types package.json declares. */
export interface Settings {
  nodePath: string;
  defaultPreset: PresetId;
  samplingIntervalUs: number;
  defaultFlags: string[];
  runsFolder: string;
  retention: number;
  stopGraceSeconds: number;
  'annotations.heatMinMs': number;
  'annotations.heatMinPercent': number;
  'annotations.hotFunctionMinPercent': number;
  'annotations.showOptimized': boolean;
  'attach.allowRemote': boolean;
}

/** Runtime list of the setting names, for the manifest test. */
export const SETTING_KEYS: readonly (keyof Settings)[] = ['nodePath', 'defaultPreset', 'samplingIntervalUs', 'defaultFlags', 'runsFolder', 'retention', 'stopGraceSeconds',
  'annotations.heatMinMs', 'annotations.heatMinPercent', 'annotations.hotFunctionMinPercent', 'annotations.showOptimized',
  'attach.allowRemote'];
