import { describe, expect, it } from 'vitest';
import { loginPathFor } from './AuthEffects.tsx';

describe('loginPathFor', () => {
  it('sends the reader to /login and back to where they were', () => {
    expect(loginPathFor('/category')).toBe('/login?redirect=%2Fcategory');
    expect(loginPathFor('/details/3/2/?x=1')).toBe('/login?redirect=%2Fdetails%2F3%2F2%2F%3Fx%3D1');
    expect(loginPathFor('/')).toBe('/login');
  });

  it('keeps the way back when a second 401 lands on /login or /signup', () => {
    expect(loginPathFor('/login?redirect=%2Fcategory')).toBe('/login?redirect=%2Fcategory');
    expect(loginPathFor('/signup?redirect=%2Faccount')).toBe('/login?redirect=%2Faccount');
    expect(loginPathFor('/login')).toBe('/login');
    expect(loginPathFor('/signup')).toBe('/login');
  });
});
