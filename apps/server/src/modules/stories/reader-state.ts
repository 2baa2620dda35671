import type { ReaderValue } from '../../cache/changes.ts';

/**
 * A reader's own rows that story answers show (subscriptions, ratings, bookmarks, alerts), read
 * in one statement for all their stories: a reader opening a story they have not opened on this
 * instance before is answered from memory, not after a round trip for that one story.
 */
export interface ReaderRows {
  /** Billing apps the reader has an active subscription to. */
  apps: readonly string[];
  /** [storyId, rating] of each story the reader rated. */
  ratings: readonly (readonly [number, number])[];
  bookmarks: readonly number[];
  alerts: readonly number[];
}

/** What a story answer says about its viewer. */
export interface ViewerState {
  readonly subscribed: boolean;
  readonly userRating: number | null;
  readonly bookmarked: boolean;
  readonly alertEnabled: boolean;
}

/** A reader's rows, indexed for lookups by story. */
export interface ReaderState {
  apps: ReadonlySet<string>;
  ratings: ReadonlyMap<number, number>;
  bookmarks: ReadonlySet<number>;
  alerts: ReadonlySet<number>;
}

/** Indexes a reader's rows. */
export const readerStateOf = (rows: ReaderRows): ReaderState => ({
  apps: new Set(rows.apps),
  ratings: new Map(rows.ratings),
  bookmarks: new Set(rows.bookmarks),
  alerts: new Set(rows.alerts),
});

// The states without a rating, one frozen object each, shared by every reader: the episode
// answer keeps its JSON by the object, so the many readers with nothing of their own share it.
const UNRATED = new Map<number, ViewerState>();
const unrated = (subscribed: boolean, bookmarked: boolean, alertEnabled: boolean) => {
  const bits = (subscribed ? 1 : 0) | (bookmarked ? 2 : 0) | (alertEnabled ? 4 : 0);
  let state = UNRATED.get(bits);
  if (!state)
    UNRATED.set(
      bits,
      (state = Object.freeze({ subscribed, userRating: null, bookmarked, alertEnabled })),
    );
  return state;
};

/** The reader's state of one story (of the billing app `appId`), frozen. */
export function stateOfStory(reader: ReaderState, storyId: number, appId: string): ViewerState {
  const subscribed = reader.apps.has(appId);
  const bookmarked = reader.bookmarks.has(storyId);
  const alertEnabled = reader.alerts.has(storyId);
  const userRating = reader.ratings.get(storyId);
  if (userRating === undefined) return unrated(subscribed, bookmarked, alertEnabled);
  return Object.freeze({ subscribed, userRating, bookmarked, alertEnabled });
}

/** What a visitor without an account has of their own. */
export const NO_STATE: ViewerState = unrated(false, false, false);

/** The rows of a reader who has none (an account just made). */
export const NO_ROWS: ReaderState = readerStateOf({
  apps: [],
  ratings: [],
  bookmarks: [],
  alerts: [],
});

/** The reader's rows with one story's rating, bookmark or alert as a notice says it is now. */
export function withValue(reader: ReaderState, storyId: number, now: ReaderValue): ReaderState {
  if ('rating' in now) {
    const ratings = new Map(reader.ratings);
    if (now.rating === null) ratings.delete(storyId);
    else ratings.set(storyId, now.rating);
    return { ...reader, ratings };
  }
  const [field, on] =
    'bookmark' in now ? (['bookmarks', now.bookmark] as const) : (['alerts', now.alert] as const);
  const stories = new Set(reader[field]);
  if (on) stories.add(storyId);
  else stories.delete(storyId);
  return { ...reader, [field]: stories };
}
