/**
 * The browser session of SPEC.md 3: the access token in localStorage under `accesstoken`, with
 * `name`, `author` and `loggedIn` ('true') beside it. A small external store: React reads it with
 * useSyncExternalStore, other tabs follow through the `storage` event, and every change is
 * announced to the page as a `kathamala:auth` event.
 */

export const TOKEN_KEY = 'accesstoken';
const NAME_KEY = 'name';
const AUTHOR_KEY = 'author';
const LOGGED_IN_KEY = 'loggedIn';
export const AUTH_EVENT = 'kathamala:auth';

export type Session =
  /** Rendering on the server or hydrating: nobody knows yet (the page shows both variants). */
  | { status: 'unknown' }
  | { status: 'visitor' }
  | { status: 'reader'; token: string; name: string; author: boolean };

export const UNKNOWN: Session = { status: 'unknown' };
const VISITOR: Session = { status: 'visitor' };

const storage = (): Storage | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
};

const read = (): Session => {
  const s = storage();
  const token = s?.getItem(TOKEN_KEY);
  if (!s || !token) return VISITOR;
  return {
    status: 'reader',
    token,
    name: s.getItem(NAME_KEY) ?? '',
    author: s.getItem(AUTHOR_KEY) === 'true',
  };
};

let current: Session | null = null;
const listeners = new Set<() => void>();

const emit = () => {
  current = read();
  if (typeof document !== 'undefined') {
    if (current.status === 'reader') document.documentElement.setAttribute('data-auth', 'in');
    else document.documentElement.removeAttribute('data-auth');
  }
  listeners.forEach((l) => l());
  if (typeof window !== 'undefined')
    window.dispatchEvent(new CustomEvent(AUTH_EVENT, { detail: current }));
};

export const getSession = (): Session => (current ??= read());
export const getServerSession = (): Session => UNKNOWN;

const onStorage = (e: StorageEvent) => {
  if (e.key === null || e.key === TOKEN_KEY || e.key === NAME_KEY || e.key === AUTHOR_KEY) emit();
};

export const subscribeSession = (listener: () => void): (() => void) => {
  if (listeners.size === 0) window.addEventListener('storage', onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('storage', onStorage);
  };
};

export const getToken = (): string | null => {
  const s = getSession();
  return s.status === 'reader' ? s.token : null;
};

/** Reads the claims of a token without checking it (the check is verifyToken's job). */
export const peekClaims = (
  token: string,
): { name?: unknown; author?: unknown; exp?: unknown; iat?: unknown } => {
  try {
    const payload = token.split('.')[1] ?? '';
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
  } catch {
    return {};
  }
};

/** Stores a new token and the name and author flag it carries, then announces the change. */
export function storeToken(
  token: string,
  claims: { name?: unknown; author?: unknown } = peekClaims(token),
): void {
  const s = storage();
  if (!s) return;
  s.setItem(TOKEN_KEY, token);
  s.setItem(LOGGED_IN_KEY, 'true');
  if (typeof claims.name === 'string') s.setItem(NAME_KEY, claims.name);
  s.setItem(AUTHOR_KEY, String(claims.author === true));
  emit();
}

/** Keeps `name` and `author` in step with the claims of a verified token. */
export function storeClaims(claims: { name?: unknown; author?: unknown }): void {
  const s = storage();
  if (!s || !s.getItem(TOKEN_KEY)) return;
  const name = typeof claims.name === 'string' ? claims.name : s.getItem(NAME_KEY);
  const author = String(claims.author === true);
  if (
    name === s.getItem(NAME_KEY) &&
    author === s.getItem(AUTHOR_KEY) &&
    s.getItem(LOGGED_IN_KEY) === 'true'
  )
    return;
  if (name !== null) s.setItem(NAME_KEY, name);
  s.setItem(AUTHOR_KEY, author);
  s.setItem(LOGGED_IN_KEY, 'true');
  emit();
}

/** Updates the remembered display name (after a username change). */
export function storeName(name: string): void {
  storage()?.setItem(NAME_KEY, name);
  emit();
}

/** Ends the session in this browser. */
export function clearSession(): void {
  const s = storage();
  if (s) for (const key of [TOKEN_KEY, NAME_KEY, AUTHOR_KEY, LOGGED_IN_KEY]) s.removeItem(key);
  emit();
}
