import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { inlineHashes } from '../modules/pages/ssr.ts';

/**
 * What the security headers depend on: where the site and its covers are served from, and the
 * built web app (its pages carry their stylesheet and pre-paint script inline, allowed by hash).
 */
export interface SecurityHeadersConfig {
  publicUrl: string;
  imagesHost: string;
  webDist?: string;
}

/** Covers are meant to be shown by other origins too (an images host, shared links). */
const IMAGES_PATH = /^\/images\//;

const originOf = (url: string): string => new URL(url).origin;

/**
 * Swagger UI draws its logo as an SVG holding a <style> element; this is that element's hash
 * (`.logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}`). An upgrade that
 * changes it shows up as a violation in apps/web/e2e/security.spec.ts.
 */
const SWAGGER_LOGO_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

/** The policy for the API docs pages (@fastify/swagger-ui's transformStaticCSP): one hash more. */
export const swaggerUiCsp = (header: string): string =>
  header.replace(/style-src 'self'(?=[ ;]|$)/, `style-src 'self' ${SWAGGER_LOGO_STYLE}`);

/**
 * The Content-Security-Policy directives. The access token lives in localStorage, so any
 * script that ran in our pages could take the account: nothing runs but our own files, and the
 * one inline script whose exact text is the build's /prepaint.js.
 */
export function cspDirectives(config: SecurityHeadersConfig): Record<string, string[]> {
  const self = originOf(config.publicUrl);
  const images = originOf(config.imagesHost);
  const https = config.publicUrl.startsWith('https://');
  // What pages carry inline so the first paint waits for no second request: the build's
  // stylesheet and pre-paint script, those exact texts by their hashes, nothing else.
  const inline = config.webDist ? inlineHashes(config.webDist) : { styles: [], scripts: [] };
  return {
    'default-src': ["'self'"],
    // No 'unsafe-inline', no 'unsafe-eval': boot data is a JSON data block, the pre-paint
    // script is allowed by its hash.
    'script-src': ["'self'", ...inline.scripts],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", ...inline.styles],
    // React renders `style=` attributes (skeleton widths, progress bars) into server HTML.
    // An attribute cannot run script or load anything img-src does not allow.
    'style-src-attr': ["'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...(images === self ? [] : [images])],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    // Over plain http (a laptop, the tests) upgrading would break every request.
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/**
 * The headers helmet sets, worked out once: none of ours depends on the request, and building
 * them per request (as @fastify/helmet does) cost about a quarter of a cached answer's time.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: () => {},
  };
  let failure: unknown;
  helmet(options)({} as never, res as never, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return headers;
}

/**
 * Sends the security headers (made once by securityHeaders) on every answer (pages, API,
 * errors, static files, the API docs): a strict CSP, nosniff, Referrer-Policy, frame denial,
 * and HSTS when served over HTTPS.
 * Installed before any plugin that adds routes, so its onRequest hook runs first.
 */
export function installSecurityHeaders(
  app: FastifyInstance,
  headers: Readonly<Record<string, string>>,
) {
  const names = Object.keys(headers);
  // A plain callback: this runs on every request, and a promise per request buys nothing here.
  app.addHook('onRequest', (request, reply, done) => {
    for (const name of names) reply.header(name, headers[name]);
    if (IMAGES_PATH.test(request.url)) reply.header('cross-origin-resource-policy', 'cross-origin');
    done();
  });
}

/** The security headers of every answer but /images/, made once at start-up. */
export function securityHeaders(config: SecurityHeadersConfig): Record<string, string> {
  const https = config.publicUrl.startsWith('https://');
  return helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config) },
    // Off (helmet's default too): it would refuse covers from an images host on another origin.
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // HSTS only means something over HTTPS; sent over http it would be ignored or, behind a
    // misconfigured proxy, lock a host out. Not includeSubDomains: other hosts are not ours.
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    xFrameOptions: { action: 'deny' },
  });
}
