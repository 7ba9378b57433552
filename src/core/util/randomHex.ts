/**
 * Eight hex digits that make a name unlikely to be taken (a temporary file's, a launch's mark),
 * without node:crypto, whose loading took 4-5 ms of every CLI command. Not for secrets: where a
 * name must not be guessable, use crypto; where it is created exclusively or only identifies, this.
 */
export function randomHex(): string {
  return Math.floor(Math.random() * 0x100000000)
    .toString(16)
    .padStart(8, '0');
}
