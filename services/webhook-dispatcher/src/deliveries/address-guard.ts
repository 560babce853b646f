import { lookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Why an address may not receive webhooks, or null when it may: only public unicast addresses
 * (loopback, private, link-local — which holds cloud metadata services —, unique-local, carrier-grade
 * NAT and reserved ranges are refused, as is an IPv4 address inside IPv6).
 */
export function addressProblem(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const range = ipaddr.process(address).range();
  return range === "unicast" ? null : `${address} is a ${range} address`;
}

/** A URL whose host is an address literal (or localhost) that may not receive webhooks; names are checked when resolved. */
export function literalHostProblem(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (host === "localhost" || host.endsWith(".localhost")) return `${host} is a loopback name`;
  return isIP(host) ? addressProblem(host) : null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` for outgoing connections that refuses names resolving to addresses that may not
 * receive webhooks. The socket connects to the address checked here, so a name cannot resolve to
 * a public address for the check and a private one for the connection.
 */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true } satisfies LookupAllOptions, (error, addresses) => {
    if (error) return callback(error, []);
    for (const { address } of addresses) {
      const problem = addressProblem(address);
      if (problem) return callback(Object.assign(new Error(`refused: ${hostname} resolves to ${problem}`), { code: "EADDRREFUSED" }), []);
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
    callback(null, first.address, first.family);
  });
}
