/** The warnings an attached run's summary carries, in one place (the summary and the report use them). */
export const ATTACH_NOTES = {
  deopts: 'deopts are not available when attaching: V8 logs them only when enabled at start-up',
  gcSource:
    'GC events of an attached run come from a perf_hooks observer (the same events as --trace-gc, without reasons or heap-before figures; heap sizes are read just after each GC)',
  inlining:
    'functions V8 had optimized before profiling started may show the time of functions inlined into them as their own (V8 records inlining details only while a profiler runs)',
  noProfile: 'no CPU profile: the target ended before profiling stopped, and V8 hands a profile over only when it stops',
  interrupted:
    'no CPU profile: V8 Lens stopped (killed or crashed) before this run ended, and V8 hands a profile over only when profiling stops; the GC events until then are kept, and the target was left running',
  noGcEvents: 'no GC events file was found in the run folder',
} as const;
