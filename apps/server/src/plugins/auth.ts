import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { unauthorized } from '../errors.ts';
import type { Viewer } from '../auth/viewer.ts';

/** Resolves a bearer token to its viewer, or null when it is forged, expired or revoked. */
export interface ViewerResolver {
  viewerFromToken(token: string): Promise<Viewer | null>;
  /** The same from memory alone when all of it is there (undefined: ask viewerFromToken). */
  keptViewer?(token: string): Viewer | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The logged-in user, or null for a visitor; set before any handler runs. */
    viewer: Viewer | null;
  }
  interface FastifyContextConfig {
    /** 'required': 401 without a valid token; default 'optional'. */
    auth?: 'required' | 'optional';
    /** A GET that changes something (a toggle, logout): answered after its changes are heard. */
    writes?: true;
  }
}

/** The bearer token of an Authorization header: null when absent, empty when malformed. */
export const bearerOf = (header: string | undefined): string | null => {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1]! : '';
};

const sessionEnded = () => unauthorized('Your session has ended. Please log in again.');

/**
 * Resolves the viewer from the bearer token on every route registered from now on: a presented
 * but bad token is a 401, and a route declared `auth: 'required'` refuses a visitor. A hook of
 * each route's, added after the rate limit's, so a flood of bad tokens is counted and refused at
 * the limit like any other request. Plain callbacks, and the viewer from memory in the same turn
 * when it is there: this runs on every request.
 */
export function installAuth(app: FastifyInstance, auth: ViewerResolver) {
  app.decorateRequest('viewer', null);
  const resolve: onRequestHookHandler = (request, _reply, done) => {
    const token = bearerOf(request.headers.authorization);
    if (token === null) return done();
    if (!token) return done(sessionEnded());
    const kept = auth.keptViewer?.(token);
    if (kept) {
      request.viewer = kept;
      return done();
    }
    auth.viewerFromToken(token).then((viewer) => {
      if (!viewer) return done(sessionEnded());
      request.viewer = viewer;
      done();
    }, done);
  };
  const required: onRequestHookHandler = (request, _reply, done) =>
    done(request.viewer ? undefined : unauthorized());
  // The rule is the route's own, read once here rather than per request (routeOptions is a
  // getter that builds an object).
  app.addHook('onRoute', (route) => {
    const own = route.onRequest === undefined ? [] : [route.onRequest].flat();
    route.onRequest =
      route.config?.auth === 'required' ? [...own, resolve, required] : [...own, resolve];
  });
}

/** The viewer of a route declared with `auth: 'required'`. */
export const requireViewer = (request: FastifyRequest): Viewer => {
  if (!request.viewer) throw unauthorized();
  return request.viewer;
};
