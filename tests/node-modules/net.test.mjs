// node:net without a connection: the address helpers.
import { diff } from './harness/cases.mjs';

diff('net.isIP and friends', `
  const inputs = ['127.0.0.1', '255.255.255.255', '256.0.0.1', '1.2.3', '01.2.3.4', '::', '::1', 'fd00::1', '1::2::3',
    '::ffff:1.2.3.4', 'fe80::1%eth0', 'example.test', '', ' 1.2.3.4', 12, null];
  return inputs.map((i) => [M.net.isIP(i), M.net.isIPv4(i), M.net.isIPv6(i)]);`);
