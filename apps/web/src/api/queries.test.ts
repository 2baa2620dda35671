import { describe, expect, it } from 'vitest';
import { apiPaths } from '@kathamala/domain';
import { isPersonalKey } from './queries.ts';

describe('isPersonalKey (dropped when the session changes)', () => {
  it.each([
    [apiPaths.part(3, 2), true],
    [apiPaths.me(), true],
    [apiPaths.ownStories(), true],
    [apiPaths.ownEpisodes(7), true],
    [apiPaths.ownEpisode(9), true],
    [apiPaths.authorStories(4), false],
    [apiPaths.preview(3), false],
    [apiPaths.listV2(), false],
    [42, false],
  ])('%s -> %s', (key, personal) => expect(isPersonalKey(key)).toBe(personal));
});
