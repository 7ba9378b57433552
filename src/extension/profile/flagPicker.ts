import * as vscode from 'vscode';
import { STABLE_DEOPTS_FLAG, captureOptionsFor, type CaptureOptions } from '../../core/flags/captureOptions';
import { PRESETS, PRESET_IDS, type PresetId } from '../../core/flags/presets';
import { presetCaveatThroughNodeOptions } from '../../core/targets/npmLaunch';
import { readSetting } from '../contract';

export interface PickedFlags {
  preset: PresetId;
  options: CaptureOptions;
}

interface PresetItem extends vscode.QuickPickItem {
  preset?: PresetId;
  custom?: boolean;
}

/**
 * "What to collect": a preset, with the settings' sampling interval and flags; or a custom run that
 * also asks for the interval, the semi-space size and extra flags. The engine validates them all
 * against the target's Node before launching, so a typo costs a message, not a run.
 */
export async function pickFlags(scope: vscode.ConfigurationScope | undefined, extraFlags: string[], throughNodeOptions = false): Promise<PickedFlags | undefined> {
  const preferred = readSetting('defaultPreset', scope);
  const order = [preferred, ...PRESET_IDS.filter((id) => id !== preferred)];
  // Through npm, a preset with deopts says at pick time that it will not get them.
  const caveat = (id: PresetId) => {
    const text = throughNodeOptions ? presetCaveatThroughNodeOptions(PRESETS[id].capture) : null;
    return text ? `$(warning) ${text}` : undefined;
  };
  const items: PresetItem[] = order.map((id) => ({ label: PRESETS[id].label, description: caveat(id), detail: PRESETS[id].detail, preset: id }));
  items.push({ label: '$(settings-gear) Custom…', detail: 'Choose the preset, sampling interval, semi-space size and extra V8 flags', custom: true });
  const placeHolder = throughNodeOptions ? 'Through npm: no deopts (they need a direct launch)' : 'Pick a preset';
  const picked = await vscode.window.showQuickPick(items, { title: 'V8 Lens: What to collect', placeHolder });
  if (!picked) return undefined;

  const base = {
    samplingIntervalUs: readSetting('samplingIntervalUs', scope),
    extraFlags: [...readSetting('defaultFlags', scope), ...extraFlags],
    allocSamplingBytes: readSetting('allocations.samplingIntervalBytes', scope),
  };
  // Exact sites only mean something when the preset samples allocations.
  const exactAllocSites = (id: PresetId) => PRESETS[id].capture.alloc && readSetting('allocations.exactSites', scope);
  // V8's GC phases only mean something with the GC trace.
  const gcPhases = (id: PresetId) => PRESETS[id].capture.gc && readSetting('gc.phases', scope);
  if (!picked.custom) return { preset: picked.preset!, options: captureOptionsFor({ preset: picked.preset!, ...base, exactAllocSites: exactAllocSites(picked.preset!), gcPhases: gcPhases(picked.preset!) }) };

  const preset = await vscode.window.showQuickPick(
    order.map((id) => ({ label: PRESETS[id].label, description: caveat(id), detail: PRESETS[id].detail, id })),
    { title: 'V8 Lens: Custom run (1/4): what to collect' },
  );
  if (!preset) return undefined;
  const interval = await vscode.window.showInputBox({
    title: 'V8 Lens: Custom run (2/4): CPU sampling interval (µs)',
    value: String(base.samplingIntervalUs),
    validateInput: (v) => (/^\d+$/.test(v) && Number(v) >= 1 ? undefined : 'A whole number of microseconds, 1 or more'),
  });
  if (interval === undefined) return undefined;
  const semi = await vscode.window.showInputBox({
    title: 'V8 Lens: Custom run (3/4): --max-semi-space-size in MB (empty: V8 default)',
    placeHolder: '16, 32, 64, …',
    validateInput: (v) => (v === '' || (/^\d+$/.test(v) && Number(v) >= 1) ? undefined : 'A whole number of MB, or empty for the default'),
  });
  if (semi === undefined) return undefined;
  const flags = await vscode.window.showInputBox({
    title: 'V8 Lens: Custom run (4/4): extra V8/Node flags (space-separated, optional)',
    value: base.extraFlags.join(' '),
    placeHolder: `--max-old-space-size=512 ${STABLE_DEOPTS_FLAG}`,
  });
  if (flags === undefined) return undefined;
  return {
    preset: preset.id,
    options: captureOptionsFor({
      preset: preset.id,
      samplingIntervalUs: Number(interval),
      semiSpaceMB: semi === '' ? null : Number(semi),
      extraFlags: flags.split(/\s+/).filter(Boolean),
      allocSamplingBytes: base.allocSamplingBytes,
      exactAllocSites: exactAllocSites(preset.id),
      gcPhases: gcPhases(preset.id),
    }),
  };
}
