import { describe, expect, it } from 'vitest';
import { authHref } from './MainNav.tsx';

describe('authHref (header Login and Join)', () => {
  it.each([
    ['/details/12/', '/login?redirect=%2Fdetails%2F12%2F'],
    ['/details/12/3/', '/login?redirect=%2Fdetails%2F12%2F3%2F'],
    ['/author/4/', '/login?redirect=%2Fauthor%2F4%2F'],
    ['/community', '/login?redirect=%2Fcommunity'],
    ['/community/post/9', '/login?redirect=%2Fcommunity%2Fpost%2F9'],
    ['/profile/3/', '/login?redirect=%2Fprofile%2F3%2F'],
    ['/', '/login'],
    ['/category', '/login'],
    ['/login', '/login'],
  ])('from %s', (pathname, href) => expect(authHref('/login', pathname)).toBe(href));

  it('works for Join too', () => {
    expect(authHref('/signup', '/details/7/')).toBe('/signup?redirect=%2Fdetails%2F7%2F');
  });
});
