'use strict';
// The CPU-bound kind of the overhead bench: a fixed amount of work (primes below 5,000,000 by trial
// division), timed by the program itself from its process's start (performance.now() counts from
// the time origin, so a preload's start-up is included) to the end of the work.
function isPrime(n) {
  if (n < 2) return false;
  for (let d = 2; d * d <= n; d++) if (n % d === 0) return false;
  return true;
}
let count = 0;
for (let n = 0; n < 5_000_000; n++) if (isPrime(n)) count++;
const cpu = process.cpuUsage();
console.log(`bench-work-done ${performance.now().toFixed(1)} ms, cpu ${((cpu.user + cpu.system) / 1000).toFixed(1)} ms (${count} primes)`);
