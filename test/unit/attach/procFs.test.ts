/** /proc/net/tcp{,6} rows as Linux prints them (addresses in host byte order, little-endian here). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseProcNetTcp } from '../../../src/core/attach/procFs';

const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:A4C7 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 717779 1 0000000068230168 100 0 0 10 0
   1: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 635 1 000000000f777fef 100 0 0 10 0
   2: 0100007F:A4C7 0100007F:D2A0 01 00000000:00000000 00:00000000 00000000     0        0 717800 1 0000000068230168 20 4 30 10 -1
   3: 0A00020F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0000000068230168 100 0 0 10 0
`;
const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:2405 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 5001 1 0000000000000000 100 0 0 10 0
   1: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 5002 1 0000000000000000 100 0 0 10 0
   2: 0000000000000000FFFF00000100007F:2406 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 5003 1 0000000000000000 100 0 0 10 0
`;

describe('parseProcNetTcp', () => {
  it('keeps LISTEN rows and decodes IPv4 addresses and ports', () => {
    assert.deepEqual(parseProcNetTcp(TCP), [
      { address: '127.0.0.1', port: 42183, inode: 717779, loopback: true, wildcard: false },
      { address: '0.0.0.0', port: 2024, inode: 635, loopback: false, wildcard: true },
      { address: '15.2.0.10', port: 8080, inode: 4242, loopback: false, wildcard: false },
    ]);
  });

  it('decodes IPv6: ::1, ::, and IPv4-mapped loopback', () => {
    assert.deepEqual(
      parseProcNetTcp(TCP6).map((s) => [s.address, s.port, s.loopback, s.wildcard]),
      [
        ['::1', 9221, true, false],
        ['::', 8080, false, true],
        ['::ffff:127.0.0.1', 9222, true, false],
      ],
    );
  });

  it('ignores a header-only or empty table', () => {
    assert.deepEqual(parseProcNetTcp(''), []);
    assert.deepEqual(parseProcNetTcp(TCP.split('\n')[0]!), []);
  });
});
