import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Addresses a fetch of someone else's URL must never reach (loopback, private, link-local…). */
const BLOCKED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const)
  BLOCKED.addSubnet(net, bits, 'ipv6');

/** True for an address no report may come from; IPv4-mapped IPv6 is judged as its IPv4. */
export const isBlockedAddress = (address: string): boolean => {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family === 6) return BLOCKED.check(address, 'ipv6');
  return true;
};

/** A refusal of the fetch itself, with the sentence recorded as the reason. */
export class FetchRefused extends Error {}

/**
 * A DNS lookup that refuses when any address the name resolves to is blocked: the check is on
 * the address the socket then connects to, so a name cannot resolve differently in between.
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 4);
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((a) => isBlockedAddress(a.address));
    if (!list.length || bad)
      return callback(
        new FetchRefused(
          `The report host resolves to a private or loopback address (${bad?.address ?? 'none'}), which is not allowed.`,
        ) as NodeJS.ErrnoException,
        '',
        4,
      );
    if (options.all) (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    else callback(null, list[0]!.address, list[0]!.family);
  });
};

export interface SafeFetchOptions {
  /** Hosts a URL may name (lower case); anything else is refused before any connection. */
  allowedHosts: string[];
  /** An origin exempt from https and the address checks (the simulator in development). */
  trustedOrigin: string | null;
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
}

/** Why this URL may not be fetched (the sentence), or null. */
export function urlRefusal(
  raw: string,
  o: Pick<SafeFetchOptions, 'allowedHosts' | 'trustedOrigin'>,
) {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'The report address is not a valid URL.';
  }
  if (o.trustedOrigin && url.origin === o.trustedOrigin) return null;
  if (url.protocol !== 'https:') return 'The report address must use https.';
  if (url.username || url.password)
    return 'The report address must not carry a user name or password.';
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (!o.allowedHosts.includes(host))
    return `The report host ${host} is not on the list of allowed report hosts.`;
  if (isIP(host) && isBlockedAddress(host))
    return `The report host ${host} is a private or loopback address, which is not allowed.`;
  return null;
}

/**
 * GETs a report URL safely: https only, allowed hosts only, no private or loopback address
 * after DNS resolution, at most `maxBytes`, within `timeoutMs`, redirects followed only to URLs
 * that pass the same checks. Answers the body as text; throws FetchRefused with the reason.
 */
export async function safeFetch(raw: string, o: SafeFetchOptions): Promise<string> {
  let current = raw;
  for (let hop = 0; hop <= o.maxRedirects; hop++) {
    const refusal = urlRefusal(current, o);
    if (refusal) throw new FetchRefused(hop ? `A redirect was refused: ${refusal}` : refusal);
    const url = new URL(current);
    const trusted = o.trustedOrigin !== null && url.origin === o.trustedOrigin;
    const answer = await getOnce(url, trusted, o);
    if ('location' in answer) {
      current = new URL(answer.location, url).toString();
      continue;
    }
    return answer.body;
  }
  throw new FetchRefused(`The report redirected more than ${o.maxRedirects} times.`);
}

/** One GET: the body, or where it redirects to. */
function getOnce(
  url: URL,
  trusted: boolean,
  o: SafeFetchOptions,
): Promise<{ body: string } | { location: string }> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.get(
      url,
      {
        ...(trusted ? {} : { lookup: guardedLookup }),
        headers: { accept: 'application/json' },
        timeout: o.timeoutMs,
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          return resolve({ location: res.headers.location });
        }
        if (status !== 200) {
          res.resume();
          return reject(new FetchRefused(`The report host answered HTTP ${status}.`));
        }
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > o.maxBytes) {
          res.destroy();
          return reject(new FetchRefused(`The report is larger than ${o.maxBytes} bytes.`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > o.maxBytes) {
            res.destroy();
            reject(new FetchRefused(`The report is larger than ${o.maxBytes} bytes.`));
          } else chunks.push(c);
        });
        res.on('end', () => resolve({ body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    // The whole exchange, not only idle time, is bounded.
    const timer = setTimeout(
      () =>
        req.destroy(new FetchRefused(`The report host did not answer within ${o.timeoutMs} ms.`)),
      o.timeoutMs,
    );
    req.on('timeout', () =>
      req.destroy(new FetchRefused(`The report host did not answer within ${o.timeoutMs} ms.`)),
    );
    req.on('close', () => clearTimeout(timer));
    req.on('error', (err) =>
      reject(
        err instanceof FetchRefused
          ? err
          : new FetchRefused(`The report could not be fetched: ${err.message}.`),
      ),
    );
  });
}
