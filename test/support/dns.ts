/** A DNS lookup for tests of the image fetcher: some names answer with chosen addresses. */
import dns from 'node:dns';
import { isIPv6, type LookupFunction } from 'node:net';

/**
 * Names the tests resolve: `intranet.example.test` answers a private address (which the fetcher
 * must refuse), `images.example.test` the loopback address 127.0.0.2 that stands for a public image
 * host (allowed by the test's FETCH_ALLOW_ADDRESSES), `compat.example.test` an IPv4-compatible
 * IPv6 address of the loopback.
 */
export const FAKE_DNS: Record<string, string> = {
  'intranet.example.test': '10.1.2.3',
  'images.example.test': '127.0.0.2',
  'compat.example.test': '::127.0.0.1',
};

/** A lookup that answers {@link FAKE_DNS}'s names itself and asks the system for every other. */
export const fakeLookup = ((
  hostname: string,
  options: dns.LookupOptions,
  cb: (...args: unknown[]) => void,
) => {
  const address = FAKE_DNS[hostname];
  if (!address) return dns.lookup(hostname, options, cb as never);
  const family = isIPv6(address) ? 6 : 4;
  if (options.all) cb(null, [{ address, family }]);
  else cb(null, address, family);
}) as unknown as LookupFunction;
