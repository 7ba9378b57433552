/**
 * Tells a run's processes that the load's measured window opens or closes: a file in the agent
 * folder that the preload polls for (see WINDOW_MARK_FILES), so the allocation sampler counts only
 * the window. A profile under load and each lab run mark it the same way.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WINDOW_MARK_FILES } from '../preload/agentEnv';

export function markLoadWindow(agentDir: string, edge: 'open' | 'close'): void {
  try {
    writeFileSync(join(agentDir, WINDOW_MARK_FILES[edge]), `${Date.now()}\n`);
  } catch {
    // the run folder is gone: the run will say so when it ends
  }
}
