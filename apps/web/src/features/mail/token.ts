/** What the page reads from a mailing-list link's token before anything is sent. */
export interface MailTokenView {
  /** The address, masked as the server shows it: 'ka***@example.com'. */
  email: string;
  expired: boolean;
}

/** 'kasun@example.com' -> 'ka***@example.com' (the server's masking). */
export const maskEmail = (email: string): string => {
  const at = email.lastIndexOf('@');
  if (at < 1) return email;
  const local = email.slice(0, at);
  return `${local.slice(0, local.length > 2 ? 2 : 1)}***${email.slice(at)}`;
};

const base64UrlJson = (part: string): unknown => {
  const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
};

/**
 * Reads the token's address and expiry to say what the button will do. Only a display: the
 * server checks the signature; a token that is not even readable answers null.
 */
export function readMailToken(token: string, now = Date.now()): MailTokenView | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const claims = base64UrlJson(parts[1]!) as { sub?: unknown; exp?: unknown; purpose?: unknown };
    if (claims.purpose !== 'mail' || typeof claims.sub !== 'string' || !claims.sub.includes('@'))
      return null;
    return {
      email: maskEmail(claims.sub),
      expired: typeof claims.exp === 'number' && claims.exp * 1000 <= now,
    };
  } catch {
    return null;
  }
}
