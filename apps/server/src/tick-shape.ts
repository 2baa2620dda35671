import { createHook } from 'node:async_hooks';

/**
 * Catches one of `process.nextTick`'s own queue entries and keeps it for the life of the
 * process; returns it (null if this Node makes none, which the test would notice).
 *
 * Why: node's http and streams run several nextTicks per request, and each makes an object
 * literal whose first keys are computed (`[async_id_symbol]`). V8 builds it through inline
 * caches that expect one shape. A full collection that finds no such object alive drops the
 * shape; the next tick makes a new one, and after a few rounds (the start-up's collections,
 * or an idle spell) the caches go megamorphic for good and every tick is built in the runtime.
 * Measured on a cached listV2 answer: about 5% of the process's CPU in perf, none in a bare
 * node:http server. One entry kept alive keeps the shape, so the caches stay monomorphic.
 */
export function keepTickShape(): object | null {
  let kept: object | null = null;
  const hook = createHook({
    init(_id, type, _trigger, resource: object) {
      if (type === 'TickObject' && kept === null) kept = resource;
    },
  }).enable();
  process.nextTick(() => {});
  hook.disable();
  return kept;
}

/** The entry kept; module scope holds it, so it lives as long as the process. */
export const keptTick = keepTickShape();
