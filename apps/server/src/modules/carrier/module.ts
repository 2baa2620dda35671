import type { Platform } from '../../platform.ts';
import { carrierRoutes } from './routes.ts';

/** The carrier's webhook (and the simulator's pages when it plays the carrier). */
export async function carrierModule({ app, db, dispatch, carrier }: Platform) {
  await carrierRoutes(app, { db, dispatch, carrier });
}
