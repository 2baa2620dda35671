import { describe, expect, it } from 'vitest';
import { NO_STATE, readerStateOf, stateOfStory } from './reader-state.ts';

const reader = readerStateOf({
  apps: ['app-a'],
  ratings: [[7, 4.5]],
  bookmarks: [7, 9],
  alerts: [9],
});

describe("a reader's state of one story", () => {
  it('says what the reader did to that story, and whether its app is theirs', () => {
    expect(stateOfStory(reader, 7, 'app-a')).toEqual({
      subscribed: true,
      userRating: 4.5,
      bookmarked: true,
      alertEnabled: false,
    });
    expect(stateOfStory(reader, 9, 'app-b')).toEqual({
      subscribed: false,
      userRating: null,
      bookmarked: true,
      alertEnabled: true,
    });
  });

  it('is frozen, and the same object for every reader with nothing of their own', () => {
    const someone = readerStateOf({ apps: [], ratings: [], bookmarks: [], alerts: [] });
    expect(stateOfStory(someone, 3, 'app-a')).toBe(NO_STATE);
    expect(stateOfStory(reader, 3, 'app-b')).toBe(NO_STATE);
    expect(stateOfStory(reader, 3, 'app-a')).not.toBe(NO_STATE);
    expect(Object.isFrozen(stateOfStory(reader, 7, 'app-a'))).toBe(true);
  });
});
