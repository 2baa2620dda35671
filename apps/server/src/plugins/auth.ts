import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from '../errors.ts';
import type { Viewer } from '../auth/viewer.ts';

/** Resolves a bearer token to its viewer, or null when it is forged, expired or revoked. */
export type ViewerResolver = { viewerFromToken(token: string): Promise<Viewer | null> };

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

/** Resolves the viewer from the bearer token; a presented but bad token is a 401 everywhere. */
export function installAuth(app: FastifyInstance, auth: ViewerResolver) {
  app.decorateRequest('viewer', null);
  app.addHook('onRequest', async (request) => {
    const token = bearerOf(request.headers.authorization);
    const required = request.routeOptions.config?.auth === 'required';
    if (token === null) {
      if (required) throw unauthorized();
      return;
    }
    const viewer = token ? await auth.viewerFromToken(token) : null;
    if (!viewer) throw unauthorized('Your session has ended. Please log in again.');
    request.viewer = viewer;
  });
}

/** The viewer of a route declared with `auth: 'required'`. */
export const requireViewer = (request: FastifyRequest): Viewer => {
  if (!request.viewer) throw unauthorized();
  return request.viewer;
};
