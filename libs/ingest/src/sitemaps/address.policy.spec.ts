import { describe, expect, it } from 'vitest';
import { isPublicAddress } from './address.policy';

describe('isPublicAddress', () => {
  it('allows global unicast only', () => {
    for (const address of ['8.8.8.8', '93.184.216.34', '2001:4860:4860::8888'])
      expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.1.2.3',
      '64:ff9b::a00:1',
      'not-an-ip',
      // IPv4-compatible IPv6, deprecated: '[::127.0.0.1]' in a URL, which WHATWG URL writes in hex.
      '::127.0.0.1',
      '::7f00:1',
      '::a00:1',
      '::808:808',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});
