// @fastify/rate-limit's in-memory store, which the package ships without types of its own.
declare module '@fastify/rate-limit/store/LocalStore.js' {
  export default class LocalStore {
    constructor(continueExceeding?: boolean, exponentialBackoff?: boolean, cache?: number);
    incr(
      key: string,
      cb: (err: Error | null, res?: { current: number; ttl: number }) => void,
      timeWindow: number,
      max: number,
    ): void;
    child(routeOptions: unknown): LocalStore;
  }
}
