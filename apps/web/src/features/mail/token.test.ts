import { describe, expect, it } from 'vitest';
import { maskEmail, readMailToken } from './token.ts';

const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const token = (claims: object) => `${part({ alg: 'EdDSA' })}.${part(claims)}.signature`;

describe('readMailToken', () => {
  const now = Date.UTC(2026, 0, 1);
  const exp = now / 1000 + 3600;

  it('reads the address, masked as the server shows it, and whether the link expired', () => {
    expect(readMailToken(token({ purpose: 'mail', sub: 'kasun@example.com', exp }), now)).toEqual({
      email: 'ka***@example.com',
      expired: false,
    });
    expect(
      readMailToken(token({ purpose: 'mail', sub: 'kasun@example.com', exp: exp - 7200 }), now)
        ?.expired,
    ).toBe(true);
  });

  it('reads Sinhala and other non-ASCII addresses (UTF-8 inside base64url)', () => {
    expect(readMailToken(token({ purpose: 'mail', sub: 'නිමල්@example.lk', exp }), now)?.email).toBe(
      'නි***@example.lk',
    );
  });

  it('answers null for anything that is not a readable mailing-list token', () => {
    expect(readMailToken('', now)).toBeNull();
    expect(readMailToken('broken', now)).toBeNull();
    expect(readMailToken('a.%%%.c', now)).toBeNull();
    // A login token (no purpose) or one cut short by a mail program's line wrap.
    expect(readMailToken(token({ sub: '12', sid: 'x', exp }), now)).toBeNull();
    expect(
      readMailToken(token({ purpose: 'mail', sub: 'kasun@example.com', exp }).slice(0, 30), now),
    ).toBeNull();
  });

  it('masks short local parts to one letter', () => {
    expect(maskEmail('ab@example.com')).toBe('a***@example.com');
    expect(maskEmail('abc@example.com')).toBe('ab***@example.com');
  });
});
