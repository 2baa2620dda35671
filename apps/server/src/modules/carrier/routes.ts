import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { Type } from 'typebox';
import { apiPaths, ErrorBody, MEMBERSHIP, Ok } from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import { carrierNotifications } from '../../db/schema.ts';
import { invalid, unauthorized } from '../../errors.ts';
import type { Carrier } from '../../adapters/carrier.ts';
import {
  checkSignature,
  parseNotification,
  SIGNATURE_HEADER,
  type SignatureCheck,
} from '../../adapters/billing/wire.ts';
import type { CarrierDispatch } from './dispatch.ts';
import { devPages } from '../../plugins/dev-pages.ts';
import { devSmsRoutes } from './dev-page.ts';

/** A notification is a few hundred bytes; anything much larger is not one. */
const WEBHOOK_BODY_BYTES = 16 * 1024;

const REFUSALS: Record<Exclude<SignatureCheck, 'ok'>, string> = {
  missing: 'This notification is not signed.',
  malformed: 'The signature of this notification is not in the expected format.',
  stale: 'This notification was signed too long ago (or in the future).',
  forged: 'The signature of this notification does not match.',
};

export interface CarrierRouteDeps {
  db: Db;
  dispatch: CarrierDispatch;
  /** With a simulator, the development SMS page is served too (to this machine's clients). */
  carrier: Pick<Carrier, 'webhookSecret' | 'listening'> &
    Partial<Pick<Carrier, 'simulator' | 'warning'>>;
  /** Our clock in milliseconds (tests move it to make stale signatures). */
  now?: () => number;
}

/**
 * The carrier's webhook: a signed notification is recorded by its id and applied in the same
 * transaction, so a repeat changes nothing and a failure applies nothing. Also tells the
 * carrier (the simulator) where the webhook is once the server listens, and with the simulator
 * serves the development SMS page to clients on this machine (plugins/dev-pages.ts).
 */
export async function carrierRoutes(app: FastifyInstance, deps: CarrierRouteDeps) {
  const now = deps.now ?? Date.now;

  await app.register(async (scope) => {
    // The signature covers the exact bytes sent: keep them, parse JSON ourselves.
    scope.removeContentTypeParser(['application/json']);
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: WEBHOOK_BODY_BYTES },
      (_req, body, done) => done(null, body),
    );

    scope.post(
      apiPaths.carrierWebhook(),
      {
        schema: {
          tags: ['carrier'],
          summary: 'Carrier notifications (REG, UNREG, charges, SMS from phones), signed.',
          response: {
            200: Ok(Type.Object({ applied: Type.Boolean() })),
            400: ErrorBody,
            401: ErrorBody,
            413: ErrorBody,
          },
        },
        // The carrier is one address sending many notifications: the global budget is for people.
        config: { rateLimit: false },
      },
      async (req) => {
        const raw = typeof req.body === 'string' ? req.body : '';
        const header = req.headers[SIGNATURE_HEADER];
        const check = checkSignature(
          deps.carrier.webhookSecret,
          Array.isArray(header) ? header[0] : header,
          raw,
          Math.floor(now() / 1000),
          MEMBERSHIP.webhookToleranceSeconds,
        );
        if (check !== 'ok') {
          if (check === 'malformed') throw invalid(REFUSALS.malformed);
          throw unauthorized(REFUSALS[check]);
        }
        let body: unknown;
        try {
          body = JSON.parse(raw);
        } catch {
          throw invalid('The notification is not valid JSON.');
        }
        const n = parseNotification(body);
        if (!n) throw invalid('The notification is missing a field or has one in the wrong form.');

        const applied = await deps.db.transaction(async (t) => {
          const tx = t as unknown as Db;
          const inserted = await tx
            .insert(carrierNotifications)
            .values({
              id: n.id,
              type: n.type,
              appId: n.appId,
              mobile: n.mobile,
              occurredAt: n.at,
              payload: raw,
            })
            .onConflictDoNothing()
            .returning({ id: carrierNotifications.id });
          if (inserted.length === 0) return false;
          await deps.dispatch.dispatch(tx, n);
          return true;
        });
        return { code: 0 as const, object: { applied } };
      },
    );
  });

  const simulator = deps.carrier.simulator ?? null;
  await devPages(app, simulator ? (scope) => devSmsRoutes(scope, simulator) : null);
  // A production server playing the carrier with the simulator (a demo) says so in its log.
  if (deps.carrier.warning) app.log.warn(deps.carrier.warning);

  // Our address is known only once we listen; the simulator posts notifications there.
  app.addHook('onListen', async function () {
    const address = app.server.address() as AddressInfo | string | null;
    if (!address || typeof address === 'string') return;
    const host =
      address.address === '0.0.0.0' || address.address === '::'
        ? '127.0.0.1'
        : address.family === 'IPv6'
          ? `[${address.address}]`
          : address.address;
    deps.carrier.listening(`http://${host}:${address.port}${apiPaths.carrierWebhook()}`);
  });
}
