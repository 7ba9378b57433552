'use strict';
// A CPU-bound program with one obviously hot function: `isPrime` by trial division.
function isPrime(n) {
  if (n < 2) return false;
  for (let d = 2; d * d <= n; d++) {
    if (n % d === 0) return false;
  }
  return true;
}

function countPrimes(limit) {
  let count = 0;
  for (let n = 0; n < limit; n++) if (isPrime(n)) count++;
  return count;
}

function formatReport(count, ms) {
  return `${count} primes below 3,000,000 in ${ms} ms`;
}

const start = Date.now();
const count = countPrimes(3_000_000);
console.log(formatReport(count, Date.now() - start));
