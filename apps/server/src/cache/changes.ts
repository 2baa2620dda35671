/**
 * What changed in the database, as the cache triggers (migration 0013) and the instances announce
 * it on the `kathamala_cache` channel: payloads are `kind:id`.
 */
export type Change =
  | { kind: 'session'; id: string }
  | { kind: 'user'; id: number }
  | { kind: 'story'; id: number }
  /** A story's episodes (added, edited, published, withdrawn); its row changes too when counts do. */
  | { kind: 'episodes'; storyId: number }
  | { kind: 'stories' }
  /**
   * One reader's reading state: of one story (a rating, bookmark or alert, with what it is `now`
   * where the notice says it, migration 0027), or all of it.
   */
  | { kind: 'viewer'; userId: number; storyId?: number; now?: ReaderValue }
  /** One listener's saved positions (migration 0025). */
  | { kind: 'listener'; userId: number }
  /**
   * An account just made with its first session, announced by the sign-up's own statement: it
   * had no rows of its own then, and a notice of any change since comes after this one.
   */
  | { kind: 'joined'; userId: number; session: JoinedSession }
  | { kind: 'members' }
  /** Public lists and rendered pages (announced by the instance that changed them). */
  | { kind: 'public' }
  /** Anything: the notices may have been missed (a lost connection). */
  | { kind: 'all' };

/** One story's rating of a reader (null once removed), or whether they bookmarked it or want alerts. */
export type ReaderValue = { rating: number | null } | { bookmark: boolean } | { alert: boolean };

/** A reader's value as a notice spells it (`rating:4`, `rating:`, `bookmark:1`, `alert:0`), or null. */
function readerValue(field: string, value: string): ReaderValue | null {
  if (field === 'rating') {
    if (value === '') return { rating: null };
    return /^\d{1,2}(\.\d{1,8})?$/.test(value) ? { rating: Number(value) } : null;
  }
  if (value !== '0' && value !== '1') return null;
  if (field === 'bookmark') return { bookmark: value === '1' };
  return field === 'alert' ? { alert: value === '1' } : null;
}

/** A sign-up's first session as its notice carries it (`joined:user:session:expiresAtMs:name`). */
export interface JoinedSession {
  id: string;
  expiresAt: number;
  name: string;
}

export const CACHE_CHANNEL = 'kathamala_cache';

const SESSION_ID = /^[0-9a-f-]{36}$/;
const JOINED = /^([1-9]\d{0,15}):([0-9a-f-]{36}):([1-9]\d{0,15}):(.+)$/s;

const positiveInt = (s: string): number | null => (/^[1-9]\d{0,15}$/.test(s) ? Number(s) : null);

/** The change a notice payload stands for, or null for one this version does not know. */
export function parseChange(payload: string): Change | null {
  const at = payload.indexOf(':');
  const kind = at < 0 ? payload : payload.slice(0, at);
  const arg = at < 0 ? '' : payload.slice(at + 1);
  switch (kind) {
    case 'session':
      return SESSION_ID.test(arg) ? { kind, id: arg } : null;
    case 'joined': {
      const [, user, id, expiresAt, name] = JOINED.exec(arg) ?? [];
      return user && id && expiresAt && name
        ? {
            kind,
            userId: Number(user),
            session: { id, expiresAt: Number(expiresAt), name },
          }
        : null;
    }
    case 'user':
    case 'story': {
      const id = positiveInt(arg);
      return id === null ? null : { kind, id };
    }
    case 'listener': {
      const userId = positiveInt(arg);
      return userId === null ? null : { kind, userId };
    }
    case 'viewer': {
      const [user = '', story, field, value, ...rest] = arg.split(':');
      const userId = positiveInt(user);
      const storyId = story === undefined ? undefined : positiveInt(story);
      if (userId === null || storyId === null || rest.length > 0) return null;
      if (storyId === undefined) return { kind, userId };
      if (field === undefined) return { kind, userId, storyId };
      const now = value === undefined ? null : readerValue(field, value);
      return now === null ? null : { kind, userId, storyId, now };
    }
    case 'episodes': {
      const storyId = positiveInt(arg);
      return storyId === null ? null : { kind, storyId };
    }
    case 'stories':
    case 'members':
    case 'public':
    case 'all':
      return { kind };
    default:
      return null;
  }
}

/** Where the caches of one instance hear about changes, local or from other instances. */
export interface ChangeFeed {
  /** Registers a cache's listener; it must be quick and must not throw. */
  on(listener: (change: Change) => void): void;
  /** Tells every listener of this instance. */
  emit(change: Change): void;
}

/** A feed that calls its listeners synchronously, in order of registration. */
export function changeFeed(): ChangeFeed {
  const listeners: ((change: Change) => void)[] = [];
  return {
    on: (listener) => void listeners.push(listener),
    emit: (change) => {
      for (const l of listeners) l(change);
    },
  };
}

/** What a service needs to keep things in memory: the changes to hear, and whether it can. */
export interface CacheDeps {
  feed: ChangeFeed;
  live(): boolean;
}
