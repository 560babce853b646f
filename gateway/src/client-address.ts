import { isIP, isIPv4, isIPv6 } from "node:net";

/** An IP address or a CIDR range (`10.0.0.0/8`, `fd00::/8`), as TRUSTED_PROXIES lists them. */
export function isAddressOrRange(value: string): boolean {
  const [address = "", prefix, ...rest] = value.split("/");
  const family = isIP(address);
  // Zone ids (`fe80::1%eth0`) are valid addresses but not something express's trust list takes.
  if (family === 0 || address.includes("%") || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/** An IPv6 address (already checked by isIPv6) as its eight 16-bit groups. */
function ipv6Groups(address: string): number[] {
  const groupsOf = (part: string) =>
    part === ""
      ? []
      : part.split(":").flatMap((group) => {
          if (!group.includes(".")) return [Number.parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split(".").map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = "", tail] = address.split("::");
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * Whose counter a request counts against, as better-auth keys its limits: an IPv4 address (also one
 * mapped into IPv6), or an IPv6 address's /64 network, since one subscriber is handed a whole /64
 * and could otherwise take a fresh address for every attempt.
 */
export function rateLimitSubject(address: string): string {
  const bare = address.split("%")[0] ?? "";
  if (isIPv4(bare) || !isIPv6(bare)) return bare;
  const groups = ipv6Groups(bare);
  const [g6 = 0, g7 = 0] = groups.slice(6);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) return [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff].join(".");
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}
