/**
 * V8's own account of a run, read from the raw files with the tests' own patterns (never V8 Lens's
 * parsers), and the run's self-check held to it: a trace that came out empty or in a shape V8 Lens
 * does not read must fail a test, never pass as "no deopts" or "0 GC events".
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { SelfCheck, Summary } from '../../src/shared/model/summary';

export interface V8GcAccount {
  /** Timed GC lines per pid. */
  byPid: Map<number, { events: number; pauseMs: number }>;
  /**
   * Per type as V8 prints it, its " (…)" qualifiers left off: Node 22+ "Scavenge (interleaved)",
   * Node 26 "Scavenge (during sweeping)" count as "Scavenge"; Node 26's "Incremental Mark-Compact" is
   * its own type.
   */
  byType: Map<string, { count: number; pauseMs: number }>;
  events: number;
  /**
   * The GCs V8 ran because V8 Lens stopped its allocation sampler (reason "sampling profiler"),
   * counted apart and in none of the figures above: V8 Lens keeps them apart too (causedByV8Lens).
   */
  sampler: { events: number; pauseMs: number };
}

/** `--trace-gc` lines of a gc-trace.log: `[pid:isolate(:n)] N ms: TYPE[ (q)]* A (B) -> C (D) MB, [pooled: N MB, ]PAUSE / X ms …`. */
export function v8GcAccount(traceFile: string): V8GcAccount {
  const byPid = new Map<number, { events: number; pauseMs: number }>();
  const byType = new Map<string, { count: number; pauseMs: number }>();
  let events = 0;
  const sampler = { events: 0, pauseMs: 0 };
  const line = /^\[(\d+):[0-9a-fA-Fx]+(?::\d+)?\] +\d+ ms: ([A-Z][A-Za-z -]*?)(?: \([^()]*\))* [\d.]+ \([\d.]+\) -> [\d.]+ \([\d.]+\) MB, (?:pooled: [\d.]+ MB, )?([\d.]+) \/ [\d.]+ ms.*$/gm;
  for (const m of readFileSync(traceFile, 'utf8').matchAll(line)) {
    const pause = Number(m[3]);
    if (/\) sampling profiler; /.test(m[0])) {
      sampler.events++;
      sampler.pauseMs += pause;
      continue;
    }
    const p = byPid.get(Number(m[1])) ?? { events: 0, pauseMs: 0 };
    p.events++;
    p.pauseMs += pause;
    byPid.set(Number(m[1]), p);
    const t = byType.get(m[2]!) ?? { count: 0, pauseMs: 0 };
    t.count++;
    t.pauseMs += pause;
    byType.set(m[2]!, t);
    events++;
  }
  return { byPid, byType, events, sampler };
}

/** Every timed line of a gc-trace.log that is not one of V8's other timed messages ([HeapController], Memory pool): what V8 printed as GC events, by shape alone. */
export function v8TimedGcLines(traceFile: string): number {
  return readFileSync(traceFile, 'utf8')
    .split('\n')
    .filter((l) => /^\[\d+:[0-9a-fA-Fx]+(?::\d+)?\] +\d+ ms: /.test(l) && !/ ms: (\[|Memory pool: )/.test(l)).length;
}

/** `[bailout (` records in the text of code traces (anywhere in a line: a record can follow a cut head). */
export function v8BailoutRecords(text: string): number {
  return text.split('[bailout (').length - 1;
}

/**
 * The run's self-check for `kind`: V8 wrote at least `atLeast` records of it and V8 Lens read every
 * one. `atLeast` comes from what the program is known to do, so an empty trace fails.
 */
export function assertReadWhole(summary: Summary, kind: keyof SelfCheck, atLeast: number): void {
  const count = summary.selfCheck?.[kind];
  const said = `selfCheck.${kind}: ${JSON.stringify(count)}; warnings: ${summary.warnings.join(' | ')}`;
  assert.ok(count, said);
  assert.ok(count.seen >= atLeast, `V8 wrote ${count.seen}, the program makes at least ${atLeast}: ${said}`);
  assert.equal(count.read, count.seen, said);
}

/** One process's run: its GC counts and pauses by type are V8's own lines, type for type. */
export function assertGcIsV8s(traceFile: string, summary: Summary): void {
  const v8 = v8GcAccount(traceFile);
  const gc = summary.gc;
  assert.ok(gc, summary.warnings.join(' | '));
  assert.equal(gc.eventCount, v8.events, `V8 printed ${v8.events} GC events (and ${v8.sampler.events} for V8 Lens's sampler)`);
  assert.equal(gc.causedByV8Lens?.events ?? 0, v8.sampler.events, 'the GCs V8 ran for V8 Lens\'s sampler, kept apart');
  assert.deepEqual(Object.keys(gc.byType).sort(), [...v8.byType.keys()].sort());
  for (const [type, own] of v8.byType) {
    assert.equal(gc.byType[type]!.count, own.count, type);
    assert.ok(Math.abs(gc.byType[type]!.totalMs - own.pauseMs) < 0.01, `${type}: ${gc.byType[type]!.totalMs} ms, V8 printed ${own.pauseMs} ms`);
  }
  assertReadWhole(summary, 'gcLines', v8.events + v8.sampler.events);
}
