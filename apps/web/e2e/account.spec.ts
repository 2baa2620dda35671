import { expect, test } from './support/hydrated.ts';
import { newReader, signupByApi } from './support/api.ts';
import { useToken } from './support/session.ts';

test('a token whose signature does not check out is dropped and the reader goes to /login', async ({
  page,
  request,
}) => {
  const token = await signupByApi(request);
  const [header, payload, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<
    string,
    unknown
  >;
  const forged = [
    header,
    Buffer.from(JSON.stringify({ ...claims, author: true })).toString('base64url'),
    signature,
  ].join('.');

  await useToken(page, forged);
  await page.goto('/category');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fcategory$/);
  expect(await page.evaluate(() => localStorage.getItem('accesstoken'))).toBeNull();
});

test('a reader changes their username on the account page', async ({ page, request }) => {
  await useToken(page, await signupByApi(request));
  await page.goto('/account');
  const newName = newReader().username.replace('reader', 'renamed');
  await page.getByLabel('New username').fill(newName);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`Your username is now ${newName}.`)).toBeVisible();
  // The refreshed token carries the new name, so it survives a reload.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('name'))).toBe(newName);
  await page.reload();
  await expect(page.getByRole('definition').filter({ hasText: newName })).toBeVisible();
  // The name in the token was checked again on load and still matches.
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => localStorage.getItem('name'))).toBe(newName);
});

test('a story that does not exist gets a friendly page and status 404', async ({ page }) => {
  const response = await page.goto('/details/999999/');
  expect(response!.status()).toBe(404);
  await expect(
    page.getByText('We could not find this story. It may have been removed.'),
  ).toBeVisible();
  const missingPage = await page.goto('/no/such/page');
  expect(missingPage!.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});
