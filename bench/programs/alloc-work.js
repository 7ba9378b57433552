'use strict';
// The allocation-heavy kind of the overhead bench: a fixed amount of allocation with a window of
// survivors (requests in flight), timed by the program itself from its process's start to the end.
// The iterations may be given (the instruction count, under valgrind, runs fewer); 20,000,000 else.
const ITERATIONS = process.argv[2] === undefined ? 20_000_000 : Number(process.argv[2]);
const WINDOW = 20_000;
const live = new Array(WINDOW);
let checksum = 0;
for (let i = 0; i < ITERATIONS; i++) {
  const item = { id: i, name: `item-${i & 1023}`, tags: [i & 7, i & 15], nested: { v: i * 2 } };
  live[i % WINDOW] = item;
  checksum = (checksum + item.nested.v + item.tags.length) | 0;
}
const cpu = process.cpuUsage();
console.log(`bench-work-done ${performance.now().toFixed(1)} ms, cpu ${((cpu.user + cpu.system) / 1000).toFixed(1)} ms (checksum ${checksum})`);
