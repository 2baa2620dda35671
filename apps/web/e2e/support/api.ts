import { expect, type APIRequestContext } from '@playwright/test';
import {
  apiPaths,
  episodePlainText,
  type StoryDetails,
  type StoryListItem,
  type StoryPage,
} from '@kathamala/domain';

/** Reads the demo catalogue through the public API, so tests never hard-code ids or titles. */
export async function allStories(request: APIRequestContext): Promise<StoryListItem[]> {
  const stories: StoryListItem[] = [];
  for (let page = 1; page < 50; page++) {
    const res = await request.get(apiPaths.listV2({ page }));
    const body = (await res.json()) as { object: StoryPage };
    stories.push(...body.object.stories);
    if (page * body.object.pageSize >= body.object.total) break;
  }
  return stories;
}

export async function findStory(
  request: APIRequestContext,
  wanted: (s: StoryListItem) => boolean,
  what: string,
): Promise<StoryListItem> {
  const story = (await allStories(request)).find(wanted);
  if (!story) throw new Error(`The demo data has no ${what}`);
  return story;
}

let counter = 0;

/** A fresh reader account: unique e-mail, valid password and username. */
export const newReader = () => {
  const id = `${Date.now().toString(36)}${(counter++).toString(36)}`;
  return {
    email: `reader-${id}@example.com`,
    password: 'a-good-password',
    username: `reader${id}`.slice(0, 20),
  };
};

export async function signupByApi(request: APIRequestContext): Promise<string> {
  const res = await request.post(apiPaths.signup(), { data: newReader() });
  if (!res.ok()) throw new Error(`signup answered ${res.status()}: ${await res.text()}`);
  const body = (await res.json()) as { object: { accesstoken: string } };
  return body.object.accesstoken;
}

export async function partByApi(
  request: APIRequestContext,
  token: string,
  storyId: number,
  n: number,
): Promise<StoryDetails> {
  const res = await request.get(apiPaths.part(storyId, n), {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await res.json()) as { object: StoryDetails }).object;
}

/**
 * The words of an episode's first paragraph (from its stored HTML), as the reader sees them;
 * only its first line when it has line breaks, so text matching never depends on how <br> reads.
 */
export const firstParagraph = (content: string): string =>
  episodePlainText(content).split('\n')[0]!.trim();

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Calls the API (as the reader whose token is given, or as a visitor with '') and returns
 * `object`, failing the test on anything but code 0.
 */
export async function call<T>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  data?: unknown,
): Promise<T> {
  const res = await request.fetch(path, { method, headers: token ? bearer(token) : {}, data });
  const body = (await res.json()) as { code: number; object: T; message?: string };
  expect(body.code, `${method} ${path}: ${body.message ?? ''}`).toBe(0);
  return body.object;
}
