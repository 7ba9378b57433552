/**
 * The string contracts between package.json and the code, without a `vscode` import so a unit test
 * can hold them against the manifest: command IDs, context keys (with their value types), view IDs,
 * webview panel types, tree item context values, settings (with their types), the workspace state
 * keys, status bar item IDs and the output channel's name. No other file in src/extension spells a
 * `v8Lens.` string; test/unit/extension/stringContracts.test.ts keeps it that way.
 */
import { PRESET_IDS, type PresetId } from '../core/flags/presets';

/** What a contract's value is in JSON Schema terms: the `type` package.json declares for it. */
export type SchemaType<T> = [T] extends [boolean]
  ? 'boolean'
  : [T] extends [number]
    ? 'number' | 'integer'
    : [T] extends [string]
      ? 'string'
      : [T] extends [readonly unknown[]]
        ? 'array'
        : 'object';

export const Commands = {
  Profile: 'v8Lens.profile',
  Attach: 'v8Lens.attach',
  OpenReport: 'v8Lens.openReport',
  StopRun: 'v8Lens.stopRun',
  CancelRun: 'v8Lens.cancelRun',
  ExportReport: 'v8Lens.exportReport',
  ExportPprof: 'v8Lens.exportPprof',
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
  ConfirmPrediction: 'v8Lens.lab.confirmPrediction',
} as const;
export type CommandId = (typeof Commands)[keyof typeof Commands];

export const ContextKeys = {
  /** A profiled run is in progress (enables Stop & Collect and Cancel). */
  Running: 'v8Lens.running',
  /** Source files carry a run's annotations (enables the toggles). */
  AnnotationsShown: 'v8Lens.annotationsShown',
} as const;
export type ContextKey = (typeof ContextKeys)[keyof typeof ContextKeys];

/** The value each context key holds: what `setContext` accepts and `when` clauses compare. */
export interface ContextKeyTypes {
  [ContextKeys.Running]: boolean;
  [ContextKeys.AnnotationsShown]: boolean;
}

/** The same at runtime, for the manifest test; the mapped type keeps it in step with ContextKeyTypes. */
export const CONTEXT_KEY_TYPES: { readonly [K in ContextKey]: SchemaType<ContextKeyTypes[K]> } = {
  [ContextKeys.Running]: 'boolean',
  [ContextKeys.AnnotationsShown]: 'boolean',
};

/** The activity bar container package.json puts the views in. */
export const VIEW_CONTAINER_ID = 'v8-lens';

/** The views package.json contributes: a tree view and a webview view. */
export const ViewIds = {
  Sessions: 'v8Lens.sessions',
  SemiSpaceLab: 'v8Lens.semiSpaceLab',
} as const;
export type ViewId = (typeof ViewIds)[keyof typeof ViewIds];

/** Which kind each view is (package.json's `type`, `tree` when absent). */
export const VIEW_KINDS: { readonly [K in ViewId]: 'tree' | 'webview' } = {
  [ViewIds.Sessions]: 'tree',
  [ViewIds.SemiSpaceLab]: 'webview',
};

/** The `viewType`s of the webview panels the extension opens in the editor area. */
export const WebviewPanelTypes = {
  Report: 'v8Lens.report',
  Compare: 'v8Lens.compare',
  SweepResults: 'v8Lens.sweepResults',
} as const;
export type WebviewPanelType = (typeof WebviewPanelTypes)[keyof typeof WebviewPanelTypes];

/** Custom editors (package.json's customEditors[].viewType). */
export const CustomEditorTypes = {
  /** "Open With… V8 Lens" on a .cpuprofile, .heapprofile, pprof or a run's summary.json (priority "option"). */
  Profile: 'v8Lens.profileViewer',
} as const;

/** Tree items' `contextValue`s, which `viewItem == …` in package.json's menus match. */
export const TreeItemContexts = {
  /** A run folder in the Sessions view (reveal, delete, compare). */
  Run: 'v8Lens.run',
} as const;
export type TreeItemContext = (typeof TreeItemContexts)[keyof typeof TreeItemContexts];

/** Status bar item IDs: the names VS Code remembers a user's hiding of the item by. */
export const StatusBarIds = {
  Run: 'v8Lens.run',
  Attach: 'v8Lens.attach',
  Annotations: 'v8Lens.annotations',
} as const;

/** The keys the extension keeps in `workspaceState`. */
export const StateKeys = {
  /** The last profiled target, offered first next time. */
  LastTarget: 'v8Lens.lastTarget',
  /** The last "Under load?" choice. */
  LastLoad: 'v8Lens.lastLoad',
  /** The Semi-space Lab's form as the user left it. */
  LabForm: 'v8Lens.lab.form',
  /** The folder of the last sweep, whose results the Lab shows again. */
  LastSweep: 'v8Lens.lab.lastSweep',
  /** The run the source annotations show. */
  AnnotatedRun: 'v8Lens.annotations.run',
  /** Annotations on or off, deopts and heat. */
  AnnotationToggles: 'v8Lens.annotations.toggles',
  /** Adding .v8-lens/ to .gitignore was offered in this workspace (once, whatever the answer). */
  GitignoreOffered: 'v8Lens.gitignoreOffered',
} as const;
export type StateKey = (typeof StateKeys)[keyof typeof StateKeys];

export const OUTPUT_CHANNEL_NAME = 'V8 Lens';

/** The section every setting lives under. */
export const SETTINGS_SECTION = 'v8Lens';

/** The settings under `v8Lens.*`, with the types package.json declares. */
export interface Settings {
  nodePath: string;
  defaultPreset: PresetId;
  samplingIntervalUs: number;
  'allocations.samplingIntervalBytes': number;
  'allocations.exactSites': boolean;
  'allocations.survivors': boolean;
  'gc.phases': boolean;
  defaultFlags: string[];
  runsFolder: string;
  retention: number;
  stopGraceSeconds: number;
  'annotations.heatMinMs': number;
  'annotations.heatMinPercent': number;
  'annotations.hotFunctionMinPercent': number;
  'annotations.allocMinPercent': number;
  'annotations.showOptimized': boolean;
  'attach.allowRemote': boolean;
}

/** Each setting's declared `type`, at runtime for the manifest test; the mapped type keeps it in step with Settings. */
export const SETTING_TYPES: { readonly [K in keyof Settings]: SchemaType<Settings[K]> } = {
  nodePath: 'string',
  defaultPreset: 'string',
  samplingIntervalUs: 'integer',
  'allocations.samplingIntervalBytes': 'integer',
  'allocations.exactSites': 'boolean',
  'allocations.survivors': 'boolean',
  'gc.phases': 'boolean',
  defaultFlags: 'array',
  runsFolder: 'string',
  retention: 'integer',
  stopGraceSeconds: 'number',
  'annotations.heatMinMs': 'number',
  'annotations.heatMinPercent': 'number',
  'annotations.hotFunctionMinPercent': 'number',
  'annotations.allocMinPercent': 'number',
  'annotations.showOptimized': 'boolean',
  'attach.allowRemote': 'boolean',
};

/** The settings whose type is a union of string literals: each needs its values as the setting's `enum`. */
type EnumSettingKey = { [K in keyof Settings]: Settings[K] extends string ? (string extends Settings[K] ? never : K) : never }[keyof Settings];
export const SETTING_ENUMS: { readonly [K in EnumSettingKey]: readonly Settings[K][] } = {
  defaultPreset: PRESET_IDS,
};

/** Runtime list of the setting names, for the manifest test. */
export const SETTING_KEYS = Object.keys(SETTING_TYPES) as readonly (keyof Settings)[];

/** A group of settings: `annotations` for every `v8Lens.annotations.*`. */
export type SettingGroup = keyof Settings extends infer K ? (K extends `${infer G}.${string}` ? G : never) : never;

/** A setting's (or group's) full name, as `affectsConfiguration` and package.json spell it. */
export function settingName<K extends keyof Settings | SettingGroup>(key: K): `${typeof SETTINGS_SECTION}.${K}` {
  return `${SETTINGS_SECTION}.${key}`;
}
