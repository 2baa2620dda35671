import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.ts';

// The app's scripts load after the first paint. A reader quick enough to submit the login form
// before then submits it natively: it is posted (method="post"), never sent as a GET with the
// password in the address, and the server sends the browser back to the page.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ DEMO_SEED: '0' });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const postForm = (url: string, accept = 'text/html,application/xhtml+xml') =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept },
    payload: 'email=reader%40example.com&password=a-secret-password',
  });

describe('a form posted before the app started', () => {
  it('goes back to its page with 303, keeping no field in the address', async () => {
    const res = await postForm('/login?next=%2Faccount');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/login');
    expect(res.body).not.toContain('a-secret-password');
  });

  it('works for every page with a form', async () => {
    for (const page of ['/signup', '/account/', '/mail', '/details/3/2/', '/publish/story'])
      expect((await postForm(page)).headers.location).toBe(page);
  });

  it('sends nowhere else: unknown or other-host addresses get the 404 answer', async () => {
    for (const url of ['//evil.example/login', '/nowhere', '/login/extra']) {
      const res = await postForm(url);
      expect(res.statusCode).toBe(404);
      expect(res.headers.location).toBeUndefined();
    }
  });

  it('leaves API clients their JSON 404', async () => {
    const res = await postForm('/login', 'application/json');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ message: expect.any(String) });
  });
});
