/** The lab's progress line: one paragraph under the form, rewritten as the sweep goes. */
import type { SweepProgress } from '../../src/shared/labProtocol';
import { el } from '../common/dom';
import { runSetting } from './labFormat';
import type { LabPage } from './page';

export interface ProgressView {
  /** Replaces the line; a problem is shown as a warning. */
  set(text: string, problem?: boolean): void;
  /** A progress event of the sweep going. */
  update(p: SweepProgress): void;
}

export function progressView(section: HTMLElement, page: LabPage): ProgressView {
  let current = { run: 0, setting: '', round: 0, phase: '', profiling: false };

  const set = (text: string, problem = false): void => {
    section.replaceChildren(el('p', { className: problem ? 'warning' : 'status', text }));
  };

  const progressLine = (): string => `Run ${current.run + 1}/${page.runCount} · ${current.setting} · ${current.profiling ? 'profiling run (not in the figures)' : `round ${current.round + 1}`} · ${current.phase}`;

  return {
    set,
    update(p) {
      switch (p.type) {
        case 'run-start':
          current = { run: p.run, setting: runSetting(p.flag, p.value, p.semiSpaceMB), round: p.round, phase: 'starting', profiling: p.purpose === 'profile' || p.purpose === 'survivors' };
          set(progressLine());
          break;
        case 'phase':
          current.phase = p.phase;
          set(progressLine());
          break;
        case 'tick':
          set(`${progressLine()} · ${Math.round(p.rps).toLocaleString('en-US')} req/s · ${p.scavenges} scavenges`);
          break;
        case 'run-end':
          if (p.run.status !== 'ok') set(`Run ${p.run.index + 1} (${runSetting(p.run.flag, p.run.value, p.run.semiSpaceMB)}): ${p.run.reason ?? p.run.status}`, true);
          break;
        case 'output':
          break;
      }
    },
  };
}
