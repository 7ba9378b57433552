/**
 * Helper-thread GC time from the recorded `--trace-gc-nvp` traces of Node 20, 24 and 26 (the JSON
 * form). The expected sums are awk's over the same files:
 *   grep -o 'background\.[a-z_.]*=[0-9.]*\|"background\.[a-z_.]*":[0-9.e+-]*' F | sed 's/"//g; s/:/=/' \
 *     | awk -F= '{s[$1]+=$2; t+=$2} END {for (k in s) print k, s[k]; print "total", t}'
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { helperGcMs, summarizeHelperGc } from '../../../src/core/gc/gcHelperTime';
import { parseGcTraceText } from '../../../src/core/gc/gcTraceCollector';

const eventsOf = (file: string) => parseGcTraceText(readFileSync(join(__dirname, '..', '..', 'fixtures', 'gc', file), 'utf8')).events;
const close = (actual: number | undefined, expected: number) => assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-6, `${actual} ≠ ${expected}`);

describe('helper-thread GC time (background.* phases)', () => {
  it('adds up every background phase of the Node 20 key=value trace, unmapper under other', () => {
    const s = summarizeHelperGc(eventsOf('node20-nvp.txt'))!;
    assert.equal(s.events, 13);
    close(s.ms, 111.1);
    close(s.byPhase.scavenge, 55.64);
    close(s.byPhase.mark, 22.91);
    close(s.byPhase.sweep, 0.57);
    close(s.byPhase.evacuate, 8.3);
    close(s.byPhase.other, 23.68);
  });

  it('reads Node 24 the same way (no unmapper phase there)', () => {
    const s = summarizeHelperGc(eventsOf('node24-nvp.txt'))!;
    close(s.ms, 74.7);
    close(s.byPhase.scavenge, 31.48);
    close(s.byPhase.mark, 24.9);
    assert.equal(s.byPhase.other, undefined);
  });

  it("reads Node 26's JSON form", () => {
    const s = summarizeHelperGc(eventsOf('node26-nvp.txt'))!;
    assert.equal(s.events, 13);
    close(s.ms, 74.465);
    close(s.byPhase.scavenge, 37.811);
    close(s.byPhase.evacuate, 9.831);
  });

  it('says "not collected" (null) for --trace-gc lines, which have no phases', () => {
    const events = eventsOf('node24.txt');
    assert.ok(events.length > 0);
    assert.equal(summarizeHelperGc(events), null);
    assert.equal(helperGcMs(events[0]!), null);
  });

  it("gives one event's own helper time", () => {
    const scavenge = eventsOf('node24-nvp.txt').find((e) => e.type === 'Scavenge')!;
    assert.equal(helperGcMs(scavenge), scavenge.nvp!['background.scavenge.parallel']);
  });
});
