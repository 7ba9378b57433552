import type { CpuCallFrame } from './cpuProfileFormat';

/** Lines and columns below this pack into one small-integer key (a V8 Smi: no allocation, fast hash). */
const SMALL = 0x8000;

/**
 * A Map key for a (line, column) pair: a small integer for the usual positions, a string for the
 * rest (minified bundles: columns in the hundreds of thousands), so distinct pairs never collide.
 */
export function positionKey(line: number, column: number): number | string {
  return line < SMALL && column < SMALL ? line * SMALL + column : `${line}:${column}`;
}

interface RawFrame {
  functionName?: unknown;
  url?: unknown;
  scriptId?: unknown;
  lineNumber?: unknown;
  columnNumber?: unknown;
}

/**
 * Reads raw call frames (CDP `callFrame`, or the flat fields of a legacy node) into 1-based frames,
 * sharing one object among the nodes that repeat a frame: V8 writes the same frame once per call path
 * (90k nodes, 11k distinct frames in the benchmark profile), so this saves most of the allocations
 * and gives later grouping one object to key on.
 *
 * Looked up by script id and position, which are short and cheap to hash, then confirmed on name and
 * url; frames that share a script and position but not a name and url (VM and native frames, all at
 * -1) go to a second map under their full description.
 */
export class CallFrameTable {
  /** Every distinct frame, in first-seen order; `read` returns indices into this. */
  readonly frames: CpuCallFrame[] = [];
  private readonly byScript = new Map<unknown, Map<number, number>>();
  private readonly others = new Map<string, number>();

  /** -1 when `raw` is not an object or a field has the wrong type; missing fields get defaults. */
  read(raw: unknown): number {
    if (typeof raw !== 'object' || raw === null) return -1;
    const frame = raw as RawFrame;
    const functionName = frame.functionName ?? '';
    const url = frame.url ?? '';
    const scriptId = frame.scriptId ?? '';
    const lineNumber = frame.lineNumber ?? -1;
    // Legacy nodes have no column: 0 (start of line) is what V8 meant there, and what speedscope shows.
    const columnNumber = frame.columnNumber ?? 0;
    if (typeof functionName !== 'string' || typeof url !== 'string') return -1;
    if (typeof lineNumber !== 'number' || typeof columnNumber !== 'number') return -1;
    if (typeof scriptId !== 'string' && typeof scriptId !== 'number') return -1;

    // lineNumber -1 marks VM frames ((root), (program), (garbage collector), (idle)): no position.
    const line = lineNumber >= 0 ? lineNumber + 1 : 0;
    const column = lineNumber >= 0 && columnNumber >= 0 ? columnNumber + 1 : 0;
    if (line < SMALL && column < SMALL) {
      let byPosition = this.byScript.get(scriptId);
      if (!byPosition) this.byScript.set(scriptId, (byPosition = new Map()));
      const position = line * SMALL + column;
      const known = byPosition.get(position);
      if (known === undefined) {
        const created = this.add(functionName, url, scriptId, line, column);
        byPosition.set(position, created);
        return created;
      }
      const frame = this.frames[known]!;
      // Both compared: real profiles do have one script id under several urls, and many frames at
      // -1:-1 in one script (chrome65-sucrase: script 98, seven urls).
      if (frame.functionName === functionName && frame.url === url) return known;
    }
    const key = `${String(scriptId)}\u0000${line}\u0000${column}\u0000${functionName}\u0000${url}`;
    let other = this.others.get(key);
    if (other === undefined) this.others.set(key, (other = this.add(functionName, url, scriptId, line, column)));
    return other;
  }

  private add(functionName: string, url: string, scriptId: string | number, line: number, column: number): number {
    this.frames.push({ functionName, url, scriptId: String(scriptId), line, column });
    return this.frames.length - 1;
  }
}
