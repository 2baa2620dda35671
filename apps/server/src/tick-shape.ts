import { createHook } from 'node:async_hooks';

/**
 * Catches one of `process.nextTick`'s own queue entries; returns it (null if this Node makes
 * none, which the test would notice). `keptTick` below holds one at all times.
 *
 * Why: node's http and streams run several nextTicks per request, and each makes an object
 * literal whose first keys are computed (`[async_id_symbol]`). V8 builds it through inline
 * caches that expect one shape. A full collection that finds no such object alive drops the
 * shape; the next tick makes a new one, and after a few rounds (the start-up's collections,
 * or an idle spell) the caches go megamorphic for good and every tick is built in the runtime.
 * Measured on a cached listV2 answer: about 5% of the process's CPU in perf, none in a bare
 * node:http server. An entry kept alive keeps the shape, so the caches stay monomorphic.
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

/** How often the kept entry is replaced by a fresh one. */
const REFRESH_MS = 1000;

/**
 * The entry kept (module scope holds it). It is replaced every second: V8 may later give the
 * ticks' objects a newer shape (a field generalised), and an entry caught once would then keep
 * only the old one alive; with collections forced every 1.5 s under load, an entry caught once
 * let the slow path come back within half a minute (3% of CPU), a refreshed one did not (0%).
 */
export let keptTick = keepTickShape();
setInterval(() => {
  keptTick = keepTickShape() ?? keptTick;
}, REFRESH_MS).unref();
