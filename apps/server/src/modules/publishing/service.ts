import {
  AUTHORING,
  CATEGORIES,
  countWords,
  episodePlainText,
  graphemes,
  toStored,
  type EpisodeInput,
  type OwnEpisode,
  type OwnStory,
  type StoryInput,
} from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { conflict, invalid, notFound } from '../../errors.ts';
import { recordEvent } from '../../jobs/events.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { storiesRepo } from '../stories/repo.ts';
import { toEpisodeHtml } from './episode-html.ts';
import { mayChangeStory, requireAuthor } from './policy.ts';
import { publishingRepo, type EpisodeRow, type StoryFields, type StoryRow } from './repo.ts';

/** The job that publishes a scheduled episode when its time comes. */
export const PUBLISH_SCHEDULED_JOB = 'episode.publish-scheduled';

/** Draws the generated cover a story shows until its author uploads one. */
export interface CoverArt {
  generate(story: { storyId: number; title: string; authorName: string }): Promise<void>;
}

export interface PublishingDeps {
  db: Db;
  queue: JobQueue;
  covers: CoverArt;
  /** A fresh token for the viewer's session, with the claims as they are now. */
  reissueToken(viewer: Viewer): Promise<string>;
  /** Drops cached public answers and pages after a change readers can see. */
  invalidate(): void;
}

/** Seed and tests may write with a past date; the API always writes now. */
export interface WriteOptions {
  at?: Date;
  /** False when the caller puts a cover in place itself (the seed's pre-drawn ones). */
  drawCover?: boolean;
}

const MAX_SCHEDULE_AHEAD_MS = 366 * 24 * 3600 * 1000;

const trimmed = (raw: string | undefined) => (raw === undefined ? undefined : toStored(raw).trim());

const checkLength = (field: string, value: string, min: number, max: number) => {
  const n = graphemes(value).length;
  if (n >= min && n <= max) return;
  if (min === 0) throw invalid(`'${field}' must be at most ${max} characters long.`);
  if (min === 1 && n === 0) throw invalid(`'${field}' must not be empty.`);
  throw invalid(`'${field}' must be ${min} to ${max} characters long.`);
};

const toDate = (field: string, iso: string) => {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) throw invalid(`'${field}' is not a valid date and time.`);
  return d;
};

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

const categoryOf = (slug: string) => {
  if (!CATEGORIES.some((c) => c.slug === slug))
    throw invalid(`'category' must be one of: ${CATEGORIES.map((c) => c.slug).join(', ')}.`);
  return slug;
};

/** Becoming an author, writing stories and episodes, and putting them out. */
export function publishingService(deps: PublishingDeps) {
  const { db, queue } = deps;
  const repo = publishingRepo(db);

  const inTransaction = <T>(work: (tx: Db) => Promise<T>) =>
    db.transaction(async (tx) => work(tx as unknown as Db));

  /** The story, if the viewer (an author) may change it; 404 or 403 otherwise. */
  const ownStory = async (tx: Db, authorId: number, storyId: number, lock = false) => {
    const story = await publishingRepo(tx).story(storyId, { lock });
    if (!story) throw notFound('We could not find that story.');
    mayChangeStory(authorId, story);
    return story;
  };

  /** Where a new or moved story goes in a series: seriesId joins one, seasonOf starts one. */
  const placeInSeries = async (
    tx: Db,
    authorId: number,
    input: StoryInput,
    current: StoryRow | undefined,
  ): Promise<{ seriesId: number | null; season: number | null }> => {
    const r = publishingRepo(tx);
    if (input.seasonOf !== undefined) {
      const first = await ownStory(tx, authorId, input.seasonOf, true);
      let seriesId = first.seriesId;
      if (!seriesId) {
        seriesId = await r.insertSeries(first.title, authorId);
        await r.setSeason(first.id, seriesId, 1);
      }
      if (current?.seriesId === seriesId) return { seriesId, season: current.season };
      return { seriesId, season: await r.nextSeason(seriesId) };
    }
    if (input.seriesId === undefined)
      return { seriesId: current?.seriesId ?? null, season: current?.season ?? null };
    if (input.seriesId === null) return { seriesId: null, season: null };
    const found = await r.series(input.seriesId);
    if (!found) throw notFound('We could not find that series.');
    mayChangeStory(
      authorId,
      { authorId: found.authorId ?? -1 },
      'That series belongs to another author.',
    );
    if (current?.seriesId === found.id) return { seriesId: found.id, season: current.season };
    return { seriesId: found.id, season: await r.nextSeason(found.id) };
  };

  /** Checks and completes the story fields: all of them on create, the given ones on update. */
  const storyFields = (input: StoryInput, current: StoryRow | undefined) => {
    const title = trimmed(input.title) ?? current?.title;
    const language = input.language ?? current?.language;
    const kind = input.kind ?? current?.kind;
    const category = input.category ?? current?.category;
    for (const [field, value] of [
      ['title', title],
      ['language', language],
      ['kind', kind],
      ['category', category],
    ] as const)
      if (value === undefined) throw invalid(`'${field}' is required to create a story.`);
    checkLength('title', title!, 1, AUTHORING.titleMaxChars);
    const description = trimmed(input.description) ?? current?.description ?? '';
    checkLength('description', description, 0, AUTHORING.descriptionChars);
    const releaseAt =
      input.releaseDate === undefined
        ? (current?.releaseAt ?? null)
        : input.releaseDate === null
          ? null
          : toDate('releaseDate', input.releaseDate);
    return {
      title: title!,
      description,
      language: language!,
      kind: kind!,
      category: categoryOf(category!),
      membersOnly: input.membersOnly ?? current?.membersOnly ?? false,
      ongoing: input.ongoing ?? current?.ongoing ?? true,
      releaseAt,
    };
  };

  /** Puts an episode out now: its part number is given once and kept for good. */
  const publishNow = async (tx: Db, story: StoryRow, episode: EpisodeRow, at: Date) => {
    const r = publishingRepo(tx);
    const partNumber = episode.partNumber ?? (await r.takePartNumber(story.id));
    await r.setEpisodeStatus(episode.id, {
      status: 'published',
      publishAt: null,
      partNumber,
      publishedAt: at,
    });
    // Republishing an unpublished episode brings it back; readers were told the first time.
    if (!episode.publishedAt)
      await recordEvent(tx, queue, {
        type: 'episode.published',
        payload: {
          storyId: story.id,
          episodeId: episode.id,
          partNumber,
          firstEpisode: !(await r.hasOtherPublished(story.id, episode.id)),
        },
      });
    return partNumber;
  };

  /** What readers see of a story changed: recount its parts and re-index its words. */
  const refreshPublic = async (tx: Db, storyId: number, at: Date | null) => {
    await publishingRepo(tx).refreshStoryParts(storyId, at);
    await storiesRepo(tx).refreshSearchDoc(storyId);
  };

  const toOwnEpisode = (e: EpisodeRow): OwnEpisode => ({
    episodeId: e.id,
    storyId: e.storyId,
    title: e.title,
    status: e.status,
    partNumber: e.partNumber,
    membersOnly: e.membersOnly,
    publishAt: iso(e.publishAt),
    publishedAt: iso(e.publishedAt),
    updatedAt: iso(e.updatedAt)!,
    words: e.words,
  });

  /** Makes a user an author (checks the name and bio); 409 when they are one or it is taken. */
  const createAuthor = async (userId: number, input: { name: string; bio?: string }) => {
    const name = toStored(input.name).trim().replace(/\s+/g, ' ');
    checkLength('name', name, AUTHORING.authorNameMinChars, AUTHORING.authorNameMaxChars);
    if (/[\p{Cc}\u200B\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/u.test(name))
      throw invalid("'name' contains characters that are not allowed.");
    const bio = toStored(input.bio ?? '').trim();
    checkLength('bio', bio, 0, AUTHORING.bioChars);
    const already = 'You are already an author. Open Write a story to publish.';
    const taken = 'Another author already writes under that name. Please choose another.';
    if (await repo.authorOfUser(userId)) throw conflict(already);
    if (await repo.nameTaken(name)) throw conflict(taken);
    const inserted = await inTransaction(async (tx) => {
      const row = await publishingRepo(tx).insertAuthor({ userId, name, bio });
      if (row) await publishingRepo(tx).setUserAuthor(userId);
      return row;
    });
    // Two requests at once: the unique indexes decide, and the loser hears why.
    if (!inserted) throw conflict((await repo.authorOfUser(userId)) ? already : taken);
    return (await repo.authorOfUser(userId))!;
  };

  return {
    createAuthor,

    /** Makes the viewer an author and gives a token that says so. */
    async registerAuthor(viewer: Viewer, input: { name: string; bio?: string }) {
      const author = await createAuthor(viewer.userId, input);
      return {
        authorId: author.id,
        appId: author.appId,
        keyword: author.keyword,
        accesstoken: await deps.reissueToken(viewer),
      };
    },

    /** Creates a story (no storyId) or changes the author's own. */
    async saveStory(viewer: Viewer, input: StoryInput, opts: WriteOptions = {}) {
      const author = await requireAuthor(repo, viewer);
      const at = opts.at ?? new Date();
      const result = await inTransaction(async (tx) => {
        const r = publishingRepo(tx);
        const current =
          input.storyId === undefined
            ? undefined
            : await ownStory(tx, author.id, input.storyId, true);
        if (input.seriesId !== undefined && input.seasonOf !== undefined)
          throw invalid("Give either 'seriesId' or 'seasonOf', not both.");
        const fields: StoryFields = {
          ...storyFields(input, current),
          ...(await placeInSeries(tx, author.id, input, current)),
        };
        if (current) {
          await r.updateStory(current.id, fields);
          await storiesRepo(tx).refreshSearchDoc(current.id);
          return { storyId: current.id, titleChanged: current.title !== fields.title, fields };
        }
        const storyId = await r.insertStory(author.id, fields, at);
        return { storyId, titleChanged: true, fields };
      });
      if (
        opts.drawCover !== false &&
        result.titleChanged &&
        !(await repo.story(result.storyId))?.coverUploadedAt
      )
        await deps.covers.generate({
          storyId: result.storyId,
          title: result.fields.title,
          authorName: author.name,
        });
      deps.invalidate();
      return { storyId: result.storyId };
    },

    /** Creates or changes an episode and moves it to the status asked for. */
    async saveEpisode(viewer: Viewer, input: EpisodeInput, opts: WriteOptions = {}) {
      const author = await requireAuthor(repo, viewer);
      const at = opts.at ?? new Date();
      const title = toStored(input.title).trim();
      checkLength('title', title, 1, AUTHORING.titleMaxChars);
      const content = toEpisodeHtml(input.content);
      if (Buffer.byteLength(content, 'utf8') > AUTHORING.contentBytes)
        throw invalid(`'content' must be at most ${AUTHORING.contentBytes / 1024} KB.`);
      if (input.status !== 'draft' && !episodePlainText(content).trim())
        throw invalid("'content' must not be empty to publish an episode.");
      let publishAt: Date | null = null;
      if (input.status === 'scheduled') {
        if (!input.publishAt) throw invalid("'publishAt' is required to schedule an episode.");
        publishAt = toDate('publishAt', input.publishAt);
        if (publishAt.getTime() <= Date.now()) throw invalid("'publishAt' must be in the future.");
        if (publishAt.getTime() - Date.now() > MAX_SCHEDULE_AHEAD_MS)
          throw invalid("'publishAt' must be within a year.");
      }

      const saved = await inTransaction(async (tx) => {
        const r = publishingRepo(tx);
        // Locking the story serialises part numbers and counts for it.
        const story = await ownStory(tx, author.id, input.storyId, true);
        let episode: EpisodeRow;
        const fields = {
          title,
          content,
          membersOnly: input.membersOnly ?? false,
          words: countWords(episodePlainText(content)),
        };
        if (input.episodeId === undefined) {
          const id = await r.insertEpisode(story.id, fields, at);
          episode = (await r.episode(id))!;
        } else {
          const found = await r.episode(input.episodeId, { lock: true });
          if (!found || found.storyId !== story.id)
            throw notFound('We could not find that episode in this story.');
          await r.updateEpisodeText(found.id, {
            ...fields,
            membersOnly: input.membersOnly ?? found.membersOnly,
          });
          episode = found;
        }
        const wasPublic = episode.status === 'published';
        let partNumber = episode.partNumber;
        if (input.status === 'published' && episode.status !== 'published') {
          partNumber = await publishNow(tx, story, episode, at);
        } else if (input.status === 'scheduled') {
          const same =
            episode.status === 'scheduled' && episode.publishAt?.getTime() === publishAt!.getTime();
          await r.setEpisodeStatus(episode.id, { status: 'scheduled', publishAt });
          if (!same)
            await queue.send(
              PUBLISH_SCHEDULED_JOB,
              { episodeId: episode.id, publishAt: publishAt!.toISOString() },
              { startAfter: publishAt! },
              tx,
            );
        } else if (input.status === 'draft' && episode.status !== 'draft') {
          await r.setEpisodeStatus(episode.id, { status: 'draft', publishAt: null });
        }
        if (wasPublic || input.status === 'published')
          await refreshPublic(tx, story.id, input.status === 'published' ? at : null);
        return { episodeId: episode.id, partNumber, publishAt };
      });
      deps.invalidate();
      return {
        episodeId: saved.episodeId,
        status: input.status,
        partNumber: saved.partNumber,
        publishAt: iso(saved.publishAt),
      };
    },

    /** Publishes a scheduled episode whose time has come; does nothing if it was changed since. */
    async publishScheduled(episodeId: number) {
      const published = await inTransaction(async (tx) => {
        const r = publishingRepo(tx);
        const episode = await r.episode(episodeId, { lock: true });
        if (!episode || episode.status !== 'scheduled' || !episode.publishAt) return false;
        if (episode.publishAt.getTime() > Date.now() + 1000) return false;
        const story = (await r.story(episode.storyId, { lock: true }))!;
        await publishNow(tx, story, episode, new Date());
        await refreshPublic(tx, story.id, new Date());
        return true;
      });
      if (published) deps.invalidate();
      return published;
    },

    /** Deletes an episode; its part number is never given to another. */
    async deleteEpisode(viewer: Viewer, episodeId: number) {
      const author = await requireAuthor(repo, viewer);
      await inTransaction(async (tx) => {
        const episode = await publishingRepo(tx).episode(episodeId, { lock: true });
        if (!episode) throw notFound('We could not find that episode.');
        await ownStory(tx, author.id, episode.storyId, true);
        await publishingRepo(tx).deleteEpisode(episodeId);
        if (episode.status === 'published') await refreshPublic(tx, episode.storyId, null);
      });
      deps.invalidate();
      return { deleted: true };
    },

    async ownStories(viewer: Viewer): Promise<{ stories: OwnStory[] }> {
      const author = await requireAuthor(repo, viewer);
      const rows = await repo.ownStories(author.id);
      return {
        stories: rows.map((s) => ({
          storyId: s.storyId,
          title: s.title,
          description: s.description,
          language: s.language,
          kind: Number(s.kind) as 0 | 2 | 3,
          category: s.category,
          membersOnly: s.membersOnly,
          ongoing: s.ongoing,
          releaseDate: iso(s.releaseAt),
          seriesId: s.seriesId,
          season: s.season,
          status: s.status,
          counts: { published: s.published, scheduled: s.scheduled, drafts: s.drafts },
          numberOfparts: Number(s.numberOfParts),
          reads: Number(s.reads),
          rating: Number(s.rating),
          updatedAt: iso(s.updatedAt)!,
        })),
      };
    },

    async ownEpisodes(viewer: Viewer, storyId: number) {
      const author = await requireAuthor(repo, viewer);
      await ownStory(db, author.id, storyId);
      return { episodes: (await repo.ownEpisodes(storyId)).map(toOwnEpisode) };
    },

    async ownEpisode(viewer: Viewer, episodeId: number) {
      const author = await requireAuthor(repo, viewer);
      const episode = await repo.episode(episodeId);
      if (!episode) throw notFound('We could not find that episode.');
      await ownStory(db, author.id, episode.storyId);
      return { episode: { ...toOwnEpisode(episode), content: episode.content } };
    },

    /** Passes when the viewer is the author of this story: 403 for others, 404 when missing. */
    async assertOwnStory(viewer: Viewer, storyId: number) {
      const author = await requireAuthor(repo, viewer);
      await ownStory(db, author.id, storyId);
    },

    /** Records an uploaded cover, so a title change no longer redraws it. */
    async coverUploaded(storyId: number) {
      await repo.setCoverUploaded(storyId);
      deps.invalidate();
    },
  };
}
export type PublishingService = ReturnType<typeof publishingService>;
