import { Type, type Static } from 'typebox';
import { IdParam, Language, NullableNumber, StoryKind } from './common.ts';
import { MAX_PAGE, LIMITS } from '../constants.ts';
import { AudioBook } from './audio.ts';

export const AuthorRef = Type.Object({ authorId: Type.Integer(), name: Type.String() });

/** A story as every list and search answers it. */
export const StoryListItem = Type.Object({
  storyId: Type.Integer(),
  title: Type.String(),
  description: Type.String(),
  kind: StoryKind,
  membersOnly: Type.Boolean(),
  ongoing: Type.Boolean(),
  language: Language,
  category: Type.String(),
  author: AuthorRef,
  reads: Type.Integer(),
  rating: Type.Number(),
  numberOfparts: Type.Integer(),
});
export type StoryListItem = Static<typeof StoryListItem>;

export const SortBy = Type.Union([
  Type.Literal('rate'),
  Type.Literal('new'),
  Type.Literal('reads'),
]);
export type SortBy = Static<typeof SortBy>;
export const OngoingFilter = Type.Union([
  Type.Literal('both'),
  Type.Literal('true'),
  Type.Literal('false'),
]);
/** A story list's filter on whether a story is still being written. */
export type OngoingFilter = Static<typeof OngoingFilter>;

const Page = Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1 });

export const ListQuery = Type.Object({
  page: Page,
  category: Type.String({ default: 'all', pattern: '^[a-z0-9-]{1,40}$' }),
  sortBy: Type.Union([SortBy], { default: 'rate' }),
  ongoing: Type.Union([OngoingFilter], { default: 'both' }),
});
export type ListQuery = Static<typeof ListQuery>;

const Paging = {
  page: Type.Integer(),
  pageSize: Type.Integer(),
  total: Type.Integer(),
};

export const StoryPage = Type.Object({ stories: Type.Array(StoryListItem), ...Paging });
export type StoryPage = Static<typeof StoryPage>;

export const SearchQuery = Type.Object({
  query: Type.String({ minLength: 1, maxLength: LIMITS.searchQueryChars }),
  page: Page,
});

export const TrendingItem = Type.Object({
  storyId: Type.Integer(),
  title: Type.String(),
  author: Type.String(),
  reads: Type.Integer(),
  description: Type.String(),
  language: Language,
});
export type TrendingItem = Static<typeof TrendingItem>;
export const TrendingList = Type.Object({ trending: Type.Array(TrendingItem) });

export const UpcomingItem = Type.Object({
  storyId: Type.Integer(),
  title: Type.String(),
  description: Type.String(),
  language: Language,
  author: AuthorRef,
  releaseDate: Type.String({ format: 'date-time' }),
});
export type UpcomingItem = Static<typeof UpcomingItem>;
export const UpcomingList = Type.Object({ upcomingStories: Type.Array(UpcomingItem) });
export const PremiumList = Type.Object({ premium: Type.Array(StoryListItem) });
export const AuthorStoryList = Type.Object({
  author: Type.Object({ authorId: Type.Integer(), name: Type.String(), bio: Type.String() }),
  stories: Type.Array(StoryListItem),
});

export const StoryIdParams = Type.Object({ id: IdParam }, { additionalProperties: false });
export const PartParams = Type.Object(
  { id: IdParam, n: Type.Integer({ minimum: 1, maximum: 100_000 }) },
  { additionalProperties: false },
);

/** The story itself inside a details answer (SPEC.md 3). */
export const Story = Type.Object({
  storyId: Type.Integer(),
  title: Type.String(),
  description: Type.String(),
  kind: StoryKind,
  membersOnly: Type.Boolean(),
  ongoing: Type.Boolean(),
  language: Language,
  category: Type.String(),
  reads: Type.Integer(),
  rating: Type.Number(),
  /** How many readers rated it (the rating panel shows it beside the mean). */
  ratingCount: Type.Integer(),
  /** When the story comes out; present only while it is not out yet (its page says so). */
  releaseDate: Type.Optional(Type.String({ format: 'date-time' })),
});
export type Story = Static<typeof Story>;

/** An episode; `content` is absent in a preview and for readers who may not see it. */
export const Part = Type.Object({
  partNumber: Type.Integer(),
  title: Type.String(),
  episodeId: Type.Integer(),
  membersOnly: Type.Boolean(),
  content: Type.Optional(Type.String()),
  /**
   * In a preview of a free story, the first words of part 1 in the stored form (episodeOpening):
   * what a visitor reads before the wall. Absent for members-only stories and episodes.
   */
  opening: Type.Optional(Type.String()),
});
export type Part = Static<typeof Part>;

export const DetailsAuthor = Type.Object({
  authorId: Type.Integer(),
  name: Type.String(),
  appId: Type.String(),
  keyword: Type.String(),
});

/** The story details response of SPEC.md 3; `series` is [seriesId, ...season storyIds]. */
export const StoryDetails = Type.Object({
  story: Story,
  series: Type.Array(Type.Integer()),
  part: Part,
  author: DetailsAuthor,
  audioBooks: Type.Array(AudioBook),
  numberOfparts: Type.Integer(),
  subscribed: Type.Boolean(),
  userRating: NullableNumber,
  bookmarked: Type.Boolean(),
  alertEnabled: Type.Boolean(),
});
export type StoryDetails = Static<typeof StoryDetails>;
