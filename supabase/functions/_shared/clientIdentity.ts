/**
 * Who a client is, for the limits and budgets of the functions that spend money: its address as
 * the gateway reports it in the header CLIENT_IP_HEADER names (right-most entry), never one the
 * client wrote itself. An IPv4 address counts as one client. An IPv6 address counts by its /64: a
 * provider hands every customer at least a /64 and the customer picks any of its 2^64 addresses
 * freely (privacy extensions change them daily), so keying by the whole address would give one
 * machine endless fresh allowances. IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) are the IPv4
 * address.
 *
 * Every client also belongs to a network, which has a budget of its own: its IPv4 /24 or IPv6
 * /48, the usual allocation of one site (an office, a hosting customer), so that a few dozen
 * addresses of one network share one budget instead of taking one each.
 *
 * A request whose address cannot be read is refused, never put in a bucket shared by everyone
 * (../_shared/guard.ts): there is no default header, since on a hosted project the default
 * X-Forwarded-For carries what the client wrote. The local stack, which is its own gateway, names
 * the header it writes in the functions' environment.
 */

/** A client and its network, as the budgets key them. */
export interface ClientKey {
  /** The address (IPv4) or its /64 (IPv6, written `<first four groups>::/64`). */
  client: string;
  /** The IPv4 /24 (`192.0.2.0/24`) or IPv6 /48 (`2001:db8:7::/48`) the client is in. */
  network: string;
}

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

/** The network of an address key (see addressKey): its IPv4 /24 or IPv6 /48. */
export function networkKey(address: string): string {
  if (address.endsWith('::/64')) {
    const groups = address.slice(0, -'::/64'.length).split(':');
    return `${groups.slice(0, 3).join(':')}::/48`;
  }
  const octets = address.split('.');
  return `${octets.slice(0, 3).join('.')}.0/24`;
}

/** The header the gateway writes the client's address into, or null when none is configured. */
export function clientHeader(env: Record<string, string>): string | null {
  return env.CLIENT_IP_HEADER?.trim().toLowerCase() || null;
}

/**
 * The client and its network from the header the gateway sets (CLIENT_IP_HEADER). A proxy appends
 * the address it saw, so the right-most entry is the one the gateway wrote; everything left of it
 * came from the client. Null when no header is configured, or the request carries no address in it.
 */
export function clientIdentity(request: Request, env: Record<string, string>): ClientKey | null {
  const header = clientHeader(env);
  if (header === null) return null;
  const entries = (request.headers.get(header) ?? '').split(',');
  const client = addressKey(entries.at(-1) ?? '');
  return client === null ? null : { client, network: networkKey(client) };
}
