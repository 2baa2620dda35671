import { BlockList, isIPv4 } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, notFound } from '../errors.ts';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** 127.0.0.0/8, ::1, or an IPv4 loopback address written as IPv6 (::ffff:127.0.0.1). */
export const isLoopback = (address: string): boolean => {
  const ip = address.trim().toLowerCase();
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (isIPv4(v4)) return LOOPBACK.check(v4, 'ipv4');
  return ip === '::1';
};

/**
 * This machine's own client: the address the request came from (or, behind a trusted proxy
 * (TRUST_PROXY), the client it names) is loopback, and so is every address a proxy's
 * X-Forwarded-For names: a proxy on this machine that is not trusted still names the client
 * there. A `Forwarded` header (RFC 7239) is a proxy's too, and is not taken apart: refused.
 */
export const fromThisMachine = (request: FastifyRequest): boolean => {
  if (!isLoopback(request.ip)) return false;
  if (request.headers.forwarded !== undefined) return false;
  const xff = request.headers['x-forwarded-for'];
  if (xff === undefined) return true;
  return [xff]
    .flat()
    .flatMap((h) => h.split(','))
    .every((a) => isLoopback(a));
};

/**
 * Admins may use the /dev/ pages from anywhere, once roles exist (SPEC.md 6 has readers and
 * authors only). The hook for that check: today nobody is one.
 */
export const isAdmin = (request: FastifyRequest): boolean => {
  void request;
  return false;
};

/** Who may open a /dev/ page or use its forms: an admin, or a client on this machine. */
export const mayUseDevPages = (request: FastifyRequest): boolean =>
  isAdmin(request) || fromThisMachine(request);

/**
 * The development pages under /dev/ (the carrier simulator's SMS page and any later one): `pages`
 * registers its routes in a scope that refuses every other client with 403 before any handler
 * runs, and answers 404 for a /dev/ address no page has. They show every subscriber's number and
 * code and can end memberships, so a server reachable from the internet must not serve them to
 * it (issue 27).
 */
export async function devPages(
  app: FastifyInstance,
  pages: ((scope: FastifyInstance) => Promise<void>) | null,
) {
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request) => {
      if (!mayUseDevPages(request))
        throw forbidden(
          'The development pages answer only on the server’s own machine (a loopback address).',
        );
    });
    scope.all('/dev/*', { schema: { hide: true } }, async () => {
      throw notFound('There is no development page at this address.');
    });
    if (pages) await pages(scope);
  });
}
