import { Type, type Static } from 'typebox';
import { IdParam, Language, StoryKind } from './common.ts';
import { StoryListItem } from './stories.ts';
import { AUTHORING } from '../constants.ts';

/** POST /api/v1/author/register/: name 2 to 60 characters after trimming (the service checks). */
export const RegisterAuthorBody = Type.Object(
  {
    name: Type.String({ maxLength: 200 }),
    bio: Type.Optional(Type.String({ maxLength: 4 * AUTHORING.bioChars })),
  },
  { additionalProperties: false },
);
export type RegisterAuthorBody = Static<typeof RegisterAuthorBody>;

export const RegisterAuthorAnswer = Type.Object({
  authorId: Type.Integer(),
  appId: Type.String(),
  keyword: Type.String(),
  /** A fresh token whose claims carry `author: true`. */
  accesstoken: Type.String(),
});

/** Episode status as an author sets it; part numbers are given when an episode goes out. */
export const EpisodeStatus = Type.Union([
  Type.Literal('draft'),
  Type.Literal('published'),
  Type.Literal('scheduled'),
]);
export type EpisodeStatus = Static<typeof EpisodeStatus>;

/**
 * A story as an author writes it. Without `storyId` it creates a story (title, language, kind
 * and category then required); with it, it changes only the fields given.
 */
export const StoryInput = Type.Object(
  {
    storyId: Type.Optional(IdParam),
    title: Type.Optional(Type.String({ maxLength: 500 })),
    description: Type.Optional(Type.String({ maxLength: 4 * AUTHORING.descriptionChars })),
    language: Type.Optional(Language),
    kind: Type.Optional(StoryKind),
    category: Type.Optional(Type.String({ maxLength: 40 })),
    membersOnly: Type.Optional(Type.Boolean()),
    ongoing: Type.Optional(Type.Boolean()),
    /** ISO date-time; in the future it lists the story under upcoming. null clears it. */
    releaseDate: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
    /** An existing series of the author's: the story becomes its next season. */
    seriesId: Type.Optional(Type.Union([IdParam, Type.Null()])),
    /** One of the author's stories: starts a series with it as season 1 (if it has none). */
    seasonOf: Type.Optional(IdParam),
  },
  { additionalProperties: false },
);
export type StoryInput = Static<typeof StoryInput>;

export const PublishStoryBody = Type.Object({ story: StoryInput }, { additionalProperties: false });
export const PublishStoryAnswer = Type.Object({ storyId: Type.Integer() });

/** An episode as an author writes it; `episodeId` present means update. */
export const EpisodeInput = Type.Object(
  {
    episodeId: Type.Optional(IdParam),
    storyId: IdParam,
    title: Type.String({ maxLength: 500 }),
    /** Sanitized HTML (p, strong, em, hr, br); plain text with blank lines is accepted too. */
    content: Type.String(),
    membersOnly: Type.Optional(Type.Boolean()),
    status: EpisodeStatus,
    /** Required when status is 'scheduled': an ISO date-time in the future. */
    publishAt: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type EpisodeInput = Static<typeof EpisodeInput>;

export const PublishEpisodeBody = Type.Object(
  { episode: EpisodeInput },
  { additionalProperties: false },
);
export const PublishEpisodeAnswer = Type.Object({
  episodeId: Type.Integer(),
  status: EpisodeStatus,
  /** Given when the episode first goes out, and kept for good. */
  partNumber: Type.Union([Type.Integer(), Type.Null()]),
  publishAt: Type.Union([Type.String(), Type.Null()]),
});

/** Where a story stands for its author. */
export const StoryStatus = Type.Union([
  Type.Literal('draft'),
  Type.Literal('upcoming'),
  Type.Literal('public'),
]);
export type StoryStatus = Static<typeof StoryStatus>;

/** One of the author's own stories, drafts included (GET /api/v1/author/story/list/webapp). */
export const OwnStory = Type.Object({
  storyId: Type.Integer(),
  title: Type.String(),
  description: Type.String(),
  language: Language,
  kind: StoryKind,
  category: Type.String(),
  membersOnly: Type.Boolean(),
  ongoing: Type.Boolean(),
  releaseDate: Type.Union([Type.String(), Type.Null()]),
  seriesId: Type.Union([Type.Integer(), Type.Null()]),
  season: Type.Union([Type.Integer(), Type.Null()]),
  status: StoryStatus,
  counts: Type.Object({
    published: Type.Integer(),
    scheduled: Type.Integer(),
    drafts: Type.Integer(),
  }),
  numberOfparts: Type.Integer(),
  reads: Type.Integer(),
  rating: Type.Number(),
  updatedAt: Type.String(),
});
export type OwnStory = Static<typeof OwnStory>;
export const OwnStoryList = Type.Object({ stories: Type.Array(OwnStory) });

/** An episode as its author sees it, every status (GET /api/v1/author/episodes/{storyId}/webapp). */
export const OwnEpisode = Type.Object({
  episodeId: Type.Integer(),
  storyId: Type.Integer(),
  title: Type.String(),
  status: EpisodeStatus,
  partNumber: Type.Union([Type.Integer(), Type.Null()]),
  membersOnly: Type.Boolean(),
  publishAt: Type.Union([Type.String(), Type.Null()]),
  publishedAt: Type.Union([Type.String(), Type.Null()]),
  updatedAt: Type.String(),
  words: Type.Integer(),
});
export type OwnEpisode = Static<typeof OwnEpisode>;
export const OwnEpisodeList = Type.Object({ episodes: Type.Array(OwnEpisode) });
export const OwnEpisodeWithContent = Type.Object({
  episode: Type.Intersect([OwnEpisode, Type.Object({ content: Type.String() })]),
});
export type OwnEpisodeWithContent = Static<typeof OwnEpisodeWithContent>;

export const EpisodeIdParams = Type.Object({ id: IdParam }, { additionalProperties: false });

export const SeasonListBody = Type.Object({ seriesId: IdParam }, { additionalProperties: false });
/** A public season of a series, in season order. */
export const Season = Type.Intersect([StoryListItem, Type.Object({ season: Type.Integer() })]);
export const SeasonList = Type.Object({ list: Type.Array(Season) });

export const DeletedAnswer = Type.Object({ deleted: Type.Boolean() });

/** The public author page's data (GET /api/v1/author/{id}/story/list/ carries it). */
export const AuthorProfile = Type.Object({
  authorId: Type.Integer(),
  name: Type.String(),
  bio: Type.String(),
});
export type AuthorProfile = Static<typeof AuthorProfile>;

/** POST /api/v1/upload-story-cover/upload/{id}: the stored cover, re-encoded as a 2:3 PNG. */
export const CoverAnswer = Type.Object({
  storyId: Type.Integer(),
  /** The cover's address with `?v=` that changes with its bytes, so a cached old one is skipped. */
  cover: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
  bytes: Type.Integer(),
});
export type CoverAnswer = Static<typeof CoverAnswer>;
