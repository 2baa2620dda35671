import { isSuccess, ResultCode, type ErrorBody } from '@kathamala/domain';
import { getToken } from '../features/auth/session.ts';

/** A failed call: HTTP status (0 when the request never got an answer), result code, message. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: number;
  /** The request field the server says the failure is about, if any. */
  readonly field?: string;
  constructor(status: number, code: number, message: string, field?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    if (field) this.field = field;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

let onUnauthorized: () => void = () => {};

/** The app decides what a 401 means (log out and go to /login, SPEC.md 4 and 8). */
export const setUnauthorizedHandler = (handler: () => void): void => {
  onUnauthorized = handler;
};

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /**
   * When false a 401 is returned to the caller instead of ending the session: login and signup
   * answer 401 for a wrong password, and logout ends the session whatever it answers.
   */
  sessionGuard?: boolean;
}

const isErrorBody = (value: unknown): value is ErrorBody =>
  typeof value === 'object' && value !== null && typeof (value as ErrorBody).code === 'number';

/**
 * Calls the API and returns the `object` of a `{code: 0, object}` answer; anything else throws
 * an ApiError carrying the server's message, which is written for people and shown as-is.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal, sessionGuard = true } = options;
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';

  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      signal,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new ApiError(0, ResultCode.network, 'network');
  }

  const payload: unknown = await res.json().catch(() => null);
  if (res.status === 401 && sessionGuard) onUnauthorized();
  if (res.ok && isErrorBody(payload) && isSuccess(payload.code)) {
    return (payload as unknown as { object: T }).object;
  }
  if (isErrorBody(payload)) {
    const message = typeof payload.message === 'string' ? payload.message : '';
    const field = typeof payload.field === 'string' ? payload.field : undefined;
    throw new ApiError(res.status, payload.code, message, field);
  }
  throw new ApiError(res.status, res.ok ? ResultCode.internal : codeForStatus(res.status), '');
}

const codeForStatus = (status: number): number =>
  status === 401
    ? ResultCode.unauthorized
    : status === 404
      ? ResultCode.notFound
      : ResultCode.internal;

/** Fetches a plain JSON file of the site (not enveloped), e.g. /categories.json. */
export async function fetchJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, { signal, headers: { accept: 'application/json' } });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new ApiError(0, ResultCode.network, 'network');
  }
  if (!res.ok) throw new ApiError(res.status, codeForStatus(res.status), '');
  return (await res.json()) as T;
}
