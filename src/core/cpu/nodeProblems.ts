import { CpuProfileError } from './cpuProfileError';

/** The messages about bad nodes, shared by the JSON reader and the byte-level fast path. */

export function malformedCallFrame(sourceName: string, id: number): CpuProfileError {
  return new CpuProfileError(sourceName, `node id ${id} has a missing or malformed callFrame.`);
}

export function duplicateId(sourceName: string, id: number): CpuProfileError {
  return new CpuProfileError(sourceName, `node id ${id} appears twice in the nodes list.`);
}

export function droppedTicksWarning(count: number): string {
  return `${count} malformed positionTicks entries were ignored.`;
}
