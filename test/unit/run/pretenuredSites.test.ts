/** Tenured sites named (an estimate) and priced, on hand-checkable events. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { GcEvent } from '../../../src/core/gc/gcEvent';
import { namePretenuredSites, type SiteSources } from '../../../src/core/run/pretenuredSites';
import type { AllocSummary, PretenuredSite, PretenuringSummary, SurvivorsSummary } from '../../../src/shared/model/summary';

function event(timeMs: number, type: string, beforeMB: number, afterMB: number, pauseMs: number): GcEvent {
  return { pid: 7, isolate: '0xa', timeMs, type, interleaved: false, reduce: false, heapBeforeMB: beforeMB, committedBeforeMB: NaN, heapAfterMB: afterMB, committedAfterMB: NaN, pooledMB: null, pauseMs, externalMs: 0, incrementalMarking: null, mu: null, reason: 'task', collectorReason: '', source: 'trace-gc' };
}

const SITE: PretenuredSite = { pid: 7, isolate: '0xa', site: '0x1a2c', firstTenuredMs: 2000, survivalAtTenure: 1, endedTenured: true, timesTenured: 1, timesUntenured: 0, weighings: 9, mementosCreated: 27000, mementosFound: 26000 };
const SUMMARY: PretenuringSummary = { linesSeen: 20, linesRead: 20, sitesWeighed: 3, sitesTenured: 1, sitesEndedTenured: 1, untenured: 0, tenured: [SITE] };

// Before 2000 ms: a Mark-Compact at 1500 (heap 10 → 6 MB, grown 10 − 8 = 2 MB since the first GC).
// After: Mark-Compacts at 3000 (40 → 8, grown 40 − 9 = 31 MB from the scavenge after the tenuring GC)
// and 4000 (30 → 9, grown 22), then a scavenge ending at 12 MB (3 more).
const EVENTS = [
  event(1000, 'Scavenge', 8, 7, 1),
  event(1500, 'Mark-Compact', 10, 6, 5),
  event(2000, 'Scavenge', 9, 9, 1), // the scavenge that tenured the site
  event(2500, 'Scavenge', 9, 12, 1),
  event(3000, 'Mark-Compact', 40, 8, 7),
  event(4000, 'Incremental Mark-Compact', 30, 9, 8),
  event(4500, 'Scavenge', 14, 12, 1),
];

const alloc = (functions: Array<[string, string, number, number]>): AllocSummary => ({
  samplingIntervalBytes: 32768,
  totalBytes: functions.reduce((n, f) => n + f[3], 0),
  bytesPerSecond: null,
  bytesPerRequest: null,
  liveAtEndBytes: null,
  sampleCount: 100,
  functions: functions.map(([name, url, line, selfBytes]) => ({ name, url, line, column: 3, selfBytes, totalBytes: selfBytes, share: selfBytes / functions.reduce((n, f) => n + f[3], 0) })),
});

const sources = (over: Partial<SiteSources> = {}): SiteSources => ({
  isolates: [{ pid: 7, isolate: '0xa', events: EVENTS }],
  allocOf: () => alloc([['(V8 API)', '', 0, 900], ['emit', 'node:events', 10, 800], ['handler', 'file:///app/server.js', 12, 500], ['build', 'file:///app/server.js', 4, 100]]),
  survivors: null,
  calleesOf: () => [],
  ...over,
});

describe('tenured sites, named and priced', () => {
  it('prices the site: Mark-Compacts after it and before it, and how the old generation grew between them', () => {
    const cost = namePretenuredSites(SUMMARY, sources()).tenured[0]!.cost!;
    assert.equal(cost.atMs, 2000);
    // Before: events after the first one's start (999 ms) up to 2000: the MC at 1500 (10 − 8 = 2 MB), then 9 − 6 = 3 MB to the end.
    assert.deepEqual(cost.before, { spanMs: 1001, markCompacts: 1, markCompactMs: 5, oldGrowthMB: 5 });
    // After: 40 − 9 = 31, 30 − 8 = 22, then 12 − 9 = 3.
    assert.deepEqual(cost.after, { spanMs: 2500, markCompacts: 2, markCompactMs: 15, oldGrowthMB: 56 });
  });

  it('names the app\'s top allocator in that process (not V8\'s or Node\'s frames), with the functions that ran under it', () => {
    const owner = namePretenuredSites(SUMMARY, sources({ calleesOf: (f) => (f.line === 12 ? ['build', 'handler'] : []) })).tenured[0]!.owner!;
    assert.equal(owner.name, 'handler');
    assert.equal(owner.basis, 'allocations');
    assert.deepEqual(owner.inlinedCandidates, ['build']);
    assert.match(owner.why, /allocates most in that process \(22% of its bytes\)/);
  });

  it('prefers the survivors pass: the function whose objects outlive young GCs most', () => {
    const survivors = { functions: [{ name: 'emit', url: 'node:events', line: 10, column: 3, bytes: 900, share: 0.5, survivalRate: 0.2, copiedBytesEstimate: null, copyMsEstimate: null }, { name: 'build', url: 'file:///app/server.js', line: 4, column: 3, bytes: 700, share: 0.4, survivalRate: 0.93, copiedBytesEstimate: null, copyMsEstimate: null }] } as unknown as SurvivorsSummary;
    const owner = namePretenuredSites(SUMMARY, sources({ survivors })).tenured[0]!.owner!;
    assert.equal(owner.name, 'build');
    assert.equal(owner.basis, 'survivors');
    assert.match(owner.why, /40% of the survivors, keeping 93% of what it allocates/);
  });

  it('knows no function where no allocations were sampled, and no cost without the tenuring GC\'s time', () => {
    const site = namePretenuredSites({ ...SUMMARY, tenured: [{ ...SITE, firstTenuredMs: null }] }, sources({ allocOf: () => null })).tenured[0]!;
    assert.equal(site.owner, null);
    assert.equal(site.cost, null);
  });
});
