// Which addresses a sitemaps import may connect to: only global unicast. Private, loopback,
// link-local (cloud metadata at 169.254.169.254), unique-local, CGNAT, reserved and the IPv6
// ranges that embed an IPv4 address (NAT64, 6to4, Teredo) could reach inside the platform.
import ipaddr from 'ipaddr.js';

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  // IPv4-compatible IPv6 (deprecated by RFC 4291): `[::127.0.0.1]` in a URL reaches us as
  // `::7f00:1`, which ipaddr.js calls unicast. It embeds an IPv4 address; nothing public uses it.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) return false;
  // IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged as the IPv4 address it is.
  return ipaddr.process(address).range() === 'unicast';
}
