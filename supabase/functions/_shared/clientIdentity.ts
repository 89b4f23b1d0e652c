/**
 * Who a client is, for the limits and budgets of the functions that spend money: its address as
 * the gateway reports it in CLIENT_IP_HEADER (default x-forwarded-for), right-most entry, never
 * one the client wrote itself. An IPv4 address counts as one client. An IPv6 address counts by
 * its /64: a provider hands every customer at least a /64 and the customer picks any of its 2^64
 * addresses freely (privacy extensions change them daily), so keying by the whole address would
 * give one machine endless fresh allowances. IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) are the
 * IPv4 address. Anything that is not an address puts the request into one shared bucket.
 */

/** The identity of requests that carry no usable address: they all share one bucket. */
export const UNKNOWN_CLIENT = 'unknown';

function ipv4(text: string): string | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const octets = parts.map((part) => (/^\d{1,3}$/u.test(part) ? Number(part) : Number.NaN));
  return octets.every((octet) => octet >= 0 && octet <= 255) ? octets.join('.') : null;
}

/** The eight 16-bit groups of an IPv6 address (an embedded IPv4 tail allowed), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address;
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    // `::ffff:192.0.2.1` is `::ffff:c000:201`.
    const v4 = ipv4(text.slice(lastColon + 1));
    if (v4 === null) return null;
    const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (side: string) => (side === '' ? [] : side.split(':'));
  const left = parse(halves[0] ?? '');
  const right = halves.length === 2 ? parse(halves[1] ?? '') : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const written = [...left, ...Array.from({ length: halves.length === 2 ? missing : 0 }, () => '0'), ...right];
  if (written.some((group) => !/^[0-9a-f]{1,4}$/iu.test(group))) return null;
  return written.map((group) => parseInt(group, 16));
}

/**
 * The key of an address: dotted IPv4, or `<first four groups>::/64` for IPv6. Accepts an IPv6
 * address in brackets, with a zone (`%eth0`) or a port (`[…]:443`, `a.b.c.d:443`), as proxies
 * sometimes write them; null when it is not an address.
 */
export function addressKey(raw: string): string | null {
  let text = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/u.exec(text);
  if (bracketed?.[1]) text = bracketed[1];
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/u.exec(text);
  if (v4WithPort?.[1]) text = v4WithPort[1];
  text = text.replace(/%[0-9a-z_.-]+$/iu, '');
  if (!text.includes(':')) return ipv4(text);
  const groups = ipv6Groups(text);
  if (groups === null) return null;
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
}

/**
 * The client's key from the header the gateway sets (CLIENT_IP_HEADER, default
 * x-forwarded-for). A proxy appends the address it saw, so the right-most entry is the one the
 * gateway wrote; everything left of it came from the client.
 */
export function clientIdentity(request: Request, env: Record<string, string>): string {
  const header = env.CLIENT_IP_HEADER?.trim().toLowerCase() || 'x-forwarded-for';
  const entries = (request.headers.get(header) ?? '').split(',');
  return addressKey(entries.at(-1) ?? '') ?? UNKNOWN_CLIENT;
}
