import { describe, expect, it } from 'vitest';
import { apiPaths } from '@kathamala/domain';
import { isPersonalKey } from './queries.ts';

describe('social answers are personal (dropped when the session changes)', () => {
  it.each([
    [apiPaths.bookmarks(), true],
    [apiPaths.continueReading(), true],
    [apiPaths.notifications(), true],
    [apiPaths.unreadNotifications(), true],
    [apiPaths.following(), true],
    [apiPaths.authorFollow(12), true],
    [apiPaths.trending(), false],
    [apiPaths.listV2({ sortBy: 'rate' }), false],
  ])('%s -> %s', (key, personal) => expect(isPersonalKey(key)).toBe(personal));
});
