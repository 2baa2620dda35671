import {
  episodeOpening,
  PAGE_SIZE,
  ResultCode,
  STORY_MESSAGES,
  toSearchKey,
  type ListQuery,
  type StoryDetails,
  type StoryPage,
  type TrendingItem,
  type UpcomingItem,
} from '@kathamala/domain';
import { AppError, notFound } from '../../errors.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { mayReadEpisode } from './policy.ts';
import type { CacheDeps } from '../../cache/changes.ts';
import { Memo } from '../../cache/memo.ts';
import {
  NO_ROWS,
  NO_STATE,
  readerStateOf,
  stateOfStory,
  withValue,
  type ReaderState,
  type ViewerState,
} from './reader-state.ts';
import { isReleased, isVisible, queryWords, type StoriesRepo } from './repo.ts';
import type { AudioBooksSource } from '../audio/service.ts';
import { allowedTypos, correctableWords, corrections, swapVariants } from './typos.ts';

const SHORT_LIST = 12;
const NO_SEASONS: readonly number[] = [];

/**
 * Trigram similarity a vocabulary word needs to be checked as a correction. One typo in a word
 * of 5-8 letters leaves about a third of its trigrams (a swap, the variants find); two typos in a
 * longer word leave fewer, so the bar is lower there.
 */
const SIMILARITY = 0.3;
const LONG_WORD_SIMILARITY = 0.2;

/** How many stories, episodes (with their text) and readers' states each instance keeps. */
const STORIES_KEPT = 5_000;
const PARTS_KEPT = 5_000;
const VIEWER_STATES_KEPT = 50_000;
const READERS_KEPT = 20_000;
/** Query words whose typo candidates are kept, and for how long (ms). */
const TYPO_WORDS_KEPT = 5_000;
const TYPO_WORDS_MS = 60_000;

type StoryRow = NonNullable<Awaited<ReturnType<StoriesRepo['story']>>>;
type PartRow = NonNullable<Awaited<ReturnType<StoriesRepo['part']>>>;
type EpisodeRef = NonNullable<Awaited<ReturnType<StoriesRepo['publishedEpisode']>>>;

/** The viewer's own fields of the story details (audioBooks: their positions, their access). */
type ViewerBits = Pick<
  StoryDetails,
  'subscribed' | 'userRating' | 'bookmarked' | 'alertEnabled' | 'audioBooks'
>;
type AudioBooks = StoryDetails['audioBooks'];
const NO_BOOKS: AudioBooks = Object.freeze([]) as unknown as AudioBooks;
/** The story details every viewer shares (the same object while its rows are unchanged). */
export type SharedDetails = Omit<StoryDetails, keyof ViewerBits>;
/** Story details in two parts: the shared one first, then the viewer's own. */
export interface DetailsView {
  shared: SharedDetails;
  mine: ViewerBits;
}
/** The shared details of one story row and part row: with the text, without, and before release. */
interface SharedKept {
  series: readonly number[] | undefined;
  withText?: SharedDetails;
  withoutText?: SharedDetails;
  upcoming?: SharedDetails;
}
/** Stands for "no part" (a story without episodes) where a part row is a key. */
const NO_PART = {};

/**
 * Reading: lists, search and the story details a viewer may see. Stories, published episodes and
 * each reader's own state are kept in memory, so a read of a known episode asks the database
 * nothing. Triggers announce every committed change of them (migration 0013), from whichever
 * instance or job made it, and the next request reads again.
 */
export function storiesService(repo: StoriesRepo, cache?: CacheDeps) {
  const live = cache ? () => cache.live() : () => false;
  const storyRows = new Memo<number, StoryRow>(STORIES_KEPT, live);
  const parts = new Memo<string, PartRow>(PARTS_KEPT, live);
  // Published episodes by id (`story:episode`), for comments: a post reads none from the database.
  const episodeRefs = new Memo<string, EpisodeRef>(PARTS_KEPT, live);
  const seasons = new Memo<number, number[]>(STORIES_KEPT, live);
  // A reader's state of one story, made from their rows of every story (`readers`): grouped by
  // reader, so a change of one reader's state drops theirs without walking 50,000 keys.
  const viewerStates = new Memo<string, ViewerState>(VIEWER_STATES_KEPT, live).grouped((key) =>
    key.slice(0, key.indexOf(':')),
  );
  const readers = new Memo<number, ReaderState>(READERS_KEPT, live);
  cache?.feed.on((change) => {
    switch (change.kind) {
      case 'story':
        // The row only (a rating, the reads): its episodes' texts stay.
        storyRows.delete(change.id);
        seasons.clear();
        break;
      case 'episodes': {
        storyRows.delete(change.storyId);
        typoWords.clear();
        const prefix = `${change.storyId}:`;
        parts.deleteWhere((key) => key.startsWith(prefix));
        episodeRefs.deleteWhere((key) => key.startsWith(prefix));
        break;
      }
      case 'viewer': {
        // A rating or bookmark changes one story's state; the reader's others stay warm. The
        // notice says what it is now, so their rows take it and their next episode reads none.
        const { userId, storyId, now } = change;
        if (storyId && now) readers.update(userId, (rows) => withValue(rows, storyId, now));
        else readers.delete(userId);
        if (storyId) viewerStates.delete(`${userId}:${storyId}`);
        else viewerStates.deleteGroup(String(userId));
        break;
      }
      case 'joined':
        // Unless read since: those rows are as new, or newer (a later write's notice drops them).
        readers.offer(change.userId, NO_ROWS);
        break;
      case 'members':
        readers.clear();
        viewerStates.clear();
        break;
      case 'stories':
        // An author's name or app: every story row, and whose subscription opens which story.
        storyRows.clear();
        seasons.clear();
        readers.clear();
        viewerStates.clear();
        typoWords.clear();
        break;
      case 'all':
        storyRows.clear();
        parts.clear();
        episodeRefs.clear();
        typoWords.clear();
        seasons.clear();
        readers.clear();
        viewerStates.clear();
        break;
    }
  });
  // A word's close vocabulary words, by word: the trigram lookup is most of a search's time in
  // the database (30 ms under load) and its answer changes only as the vocabulary does. A
  // published or withdrawn episode drops them all; an edited title is seen within the minute.
  const typoWords = new Memo<string, { at: number; words: string[] }>(TYPO_WORDS_KEPT, live);
  const typoCandidates = async (word: string, typos: number, similarity: number) => {
    const key = `${typos}:${similarity}:${word}`;
    const kept = typoWords.get(key);
    if (kept && Date.now() - kept.at < TYPO_WORDS_MS) return kept.words;
    if (kept) typoWords.delete(key);
    const found = await typoWords.load(key, async () => ({
      at: Date.now(),
      words: await repo.typoCandidates(word, swapVariants(word), typos, similarity),
    }));
    return found?.words ?? [];
  };
  const storyRow = (id: number) => storyRows.load(id, () => repo.story(id));
  const partRow = (id: number, n: number) => parts.load(`${id}:${n}`, () => repo.part(id, n, true));
  const seasonsOf = async (seriesId: number) =>
    (await seasons.load(seriesId, () => repo.seasons(seriesId))) ?? NO_SEASONS;
  // The story's tracks for this viewer (issue 29), set by the audio module once it is built.
  let audio: AudioBooksSource | null = null;
  // A reader's state with their audioBooks, one frozen object per pair of them (a page turn
  // writes no JSON for it: part-answer.ts keeps its JSON by identity). By both: readers with
  // nothing of their own share one state, and each listener has audioBooks of their own.
  const withBooks = new WeakMap<ViewerState, WeakMap<AudioBooks, ViewerBits>>();
  const mineOf = (state: ViewerState, books: AudioBooks): ViewerBits => {
    let byBooks = withBooks.get(state);
    if (!byBooks) withBooks.set(state, (byBooks = new WeakMap()));
    let mine = byBooks.get(books);
    if (!mine) byBooks.set(books, (mine = Object.freeze({ ...state, audioBooks: books })));
    return mine;
  };
  // One statement reads a reader's rows of every story; each story's state is made from them.
  const readerOf = async (userId: number) =>
    (await readers.load(userId, async () => readerStateOf(await repo.readerRows(userId))))!;
  const viewerState = (userId: number, storyId: number, appId: string) =>
    viewerStates.load(`${userId}:${storyId}`, async () =>
      stateOfStory(await readerOf(userId), storyId, appId),
    ) as Promise<ViewerState>;
  /** The reader's state of a story from memory alone, or undefined. */
  const keptViewerState = (userId: number, storyId: number, appId: string) => {
    const key = `${userId}:${storyId}`;
    const kept = viewerStates.get(key);
    if (kept) return kept;
    const reader = readers.get(userId);
    // Made from rows kept now: no notice about this reader has come since they were read.
    return reader && viewerStates.keep(key, stateOfStory(reader, storyId, appId));
  };

  const pageOf = (
    page: number,
    found: { items: StoryPage['stories']; total: number },
  ): StoryPage => ({
    stories: found.items,
    page,
    pageSize: PAGE_SIZE,
    total: found.total,
  });

  // The part of an answer that is the same for every viewer, kept per story row, part row and
  // seasons (each replaced when it changes): one object, so its JSON can be kept by identity.
  // Weakly, by the rows themselves: what the memos above let go (an evicted episode with its
  // text) goes from here too, so this holds no more than they do.
  const sharedKept = new WeakMap<StoryRow, WeakMap<object, SharedKept>>();
  const sharedOf = (
    story: StoryRow,
    found: PartRow | undefined,
    series: readonly number[] | undefined,
    content: string | undefined,
    upcoming: boolean,
  ): SharedDetails => {
    let byPart = sharedKept.get(story);
    if (!byPart) sharedKept.set(story, (byPart = new WeakMap()));
    let kept = byPart.get(found ?? NO_PART);
    if (!kept || kept.series !== series) byPart.set(found ?? NO_PART, (kept = { series }));
    // A story before its release is kept apart: the same row is out once its day comes.
    const slot = content !== undefined ? 'withText' : upcoming ? 'upcoming' : 'withoutText';
    const ready = kept[slot];
    if (ready) return ready;
    // A visitor reads the opening of part 1 of a free story (SPEC.md 1), made once per version.
    const opening =
      slot === 'withoutText' &&
      found?.partNumber === 1 &&
      found.content &&
      !story.membersOnly &&
      !found.membersOnly
        ? episodeOpening(found.content)
        : '';
    const shared: SharedDetails = {
      story: {
        storyId: story.storyId,
        title: story.title,
        description: story.description,
        kind: Number(story.kind) as 0 | 2 | 3,
        membersOnly: story.membersOnly,
        ongoing: story.ongoing,
        language: story.language,
        category: story.category,
        reads: Number(story.reads),
        rating: Number(story.rating),
        ratingCount: Number(story.ratingCount),
        ...(upcoming && story.releaseTime !== null
          ? { releaseDate: new Date(story.releaseTime).toISOString() }
          : {}),
      },
      series: story.seriesId && series ? [story.seriesId, ...series] : [],
      part: found
        ? {
            episodeId: found.episodeId,
            partNumber: found.partNumber,
            title: found.title,
            membersOnly: found.membersOnly,
            ...(content === undefined ? {} : { content }),
            ...(opening ? { opening } : {}),
          }
        : { partNumber: 1, title: '', episodeId: 0, membersOnly: story.membersOnly },
      author: {
        authorId: story.authorId,
        name: story.authorName,
        appId: story.appId,
        keyword: story.keyword,
      },
      numberOfparts: story.numberOfparts,
    };
    kept[slot] = shared;
    return shared;
  };

  // The rules of a details answer, shared by the read from the database and the one from memory.
  /** The story when it may be shown (and, for a text, is out); else the route's 404. */
  const mustSee = (story: StoryRow | undefined, wantText: boolean, now: number): StoryRow => {
    if (!story || !isVisible(story, now))
      throw notFound('We could not find that story. It may have been removed.');
    if (wantText && !isReleased(story, now)) throw notFound(STORY_MESSAGES.notOutYet);
    return story;
  };
  /** The route's 404 for a part that does not exist (a text or a part past the first). */
  const mustHavePart = (
    story: StoryRow,
    found: PartRow | undefined,
    partNumber: number,
    wantText: boolean,
  ) => {
    if (!found && (wantText || partNumber > 1))
      throw notFound(
        `This story has ${story.numberOfparts} part${story.numberOfparts === 1 ? '' : 's'}; part ${partNumber} does not exist.`,
      );
  };
  /** The answer; for a text, the route's 403 when this viewer may not read it. */
  const viewOf = (
    story: StoryRow,
    found: PartRow | undefined,
    series: readonly number[] | undefined,
    mine: ViewerState,
    books: AudioBooks,
    viewer: Viewer | null,
    wantText: boolean,
    now: number,
  ): DetailsView => {
    // The text is kept with the part; it is dropped here unless wanted and allowed.
    let content: string | undefined;
    if (wantText && found) {
      if (!mayReadEpisode(viewer, mine.subscribed, story, found))
        throw new AppError(
          403,
          ResultCode.subscriptionRequired,
          'This story is for members. Subscribe to read it.',
        );
      content = found.content;
    }
    // The kept state itself (frozen, exactly the viewer's fields): the part answer keeps its JSON by it.
    const upcoming = !isReleased(story, now);
    return { shared: sharedOf(story, found, series, content, upcoming), mine: mineOf(mine, books) };
  };

  const detailsView = async (
    storyId: number,
    partNumber: number,
    viewer: Viewer | null,
    wantText: boolean,
  ): Promise<DetailsView> => {
    const now = Date.now();
    const story = mustSee(await storyRow(storyId), wantText, now);
    const found = story.numberOfparts > 0 ? await partRow(storyId, partNumber) : undefined;
    mustHavePart(story, found, partNumber, wantText);
    // One round trip for what is the viewer's own: subscription, rating, bookmark and alert.
    const mine = viewer ? await viewerState(viewer.userId, storyId, story.appId) : NO_STATE;
    const series = story.seriesId ? await seasonsOf(story.seriesId) : undefined;
    const books = audio
      ? ((await audio.load(storyId, viewer, mine.subscribed)) as AudioBooks)
      : NO_BOOKS;
    return viewOf(story, found, series, mine, books, viewer, wantText, now);
  };

  /**
   * partView from memory alone, in this turn of the event loop: undefined when a row or the
   * viewer's state has to be read first. Refuses as partView does (the same throws).
   */
  const keptPartView = (storyId: number, n: number, viewer: Viewer): DetailsView | undefined => {
    const story = storyRows.get(storyId);
    // As detailsView: a story without parts has none to show, whatever is kept.
    const found = story && story.numberOfparts > 0 ? parts.get(`${storyId}:${n}`) : undefined;
    const mine = story && keptViewerState(viewer.userId, storyId, story.appId);
    const series = story?.seriesId ? seasons.get(story.seriesId) : undefined;
    if (!story || !found || !mine || (story.seriesId && !series)) return undefined;
    const books = audio ? (audio.kept(storyId, viewer, mine.subscribed) as AudioBooks) : NO_BOOKS;
    if (!books) return undefined;
    const now = Date.now();
    mustSee(story, true, now);
    mustHavePart(story, found, n, true);
    return viewOf(story, found, series, mine, books, viewer, true, now);
  };
  const details = async (...args: Parameters<typeof detailsView>): Promise<StoryDetails> => {
    const { shared, mine } = await detailsView(...args);
    return { ...shared, ...mine };
  };

  return {
    list: async (q: ListQuery) =>
      pageOf(q.page, await repo.list({ ...q, limit: PAGE_SIZE, offset: (q.page - 1) * PAGE_SIZE })),

    /**
     * Stories matching the query. Each word of 5 letters or more may carry a typo (9 or more,
     * two): vocabulary words that close also match, ranked below stories matching as typed.
     */
    search: async (query: string, page: number) => {
      const key = toSearchKey(query);
      if (!key) return pageOf(page, { items: [], total: 0 });
      const fixes = new Map<string, string[]>();
      for (const word of correctableWords(queryWords(key))) {
        const typos = allowedTypos([...word].length);
        const candidates = await typoCandidates(
          word,
          typos,
          typos > 1 ? LONG_WORD_SIMILARITY : SIMILARITY,
        );
        const found = corrections(word, candidates);
        if (found.length) fixes.set(word, found);
      }
      return pageOf(page, await repo.search(key, PAGE_SIZE, (page - 1) * PAGE_SIZE, fixes));
    },

    trending: async (): Promise<TrendingItem[]> =>
      (await repo.trending(8)).items.map((s) => ({
        storyId: s.storyId,
        title: s.title,
        author: s.author.name,
        reads: s.reads,
        description: s.description,
        language: s.language,
      })),

    upcoming: async (): Promise<UpcomingItem[]> =>
      (await repo.upcoming(SHORT_LIST)).map((r) => ({
        storyId: r.storyId,
        title: r.title,
        description: r.description,
        language: r.language,
        author: { authorId: r.authorId, name: r.authorName },
        releaseDate: new Date(r.releaseAt).toISOString(),
      })),

    premium: async () => (await repo.premium(SHORT_LIST)).items,

    byAuthor: async (authorId: number) => {
      const author = await repo.author(authorId);
      if (!author) throw notFound('We could not find that author.');
      return {
        author: { authorId, name: author.name, bio: author.bio },
        stories: (await repo.byAuthor(authorId, 50)).items,
      };
    },

    /** The public seasons of a series, in order (POST /api/v1/series/season/list/). */
    seasons: async (seriesId: number) => {
      const list = await repo.seasonList(seriesId);
      if (!list) throw notFound('We could not find that series.');
      return { list };
    },

    /** One story's row, kept, whether or not it is public (callers decide, as repo.story says). */
    story: storyRow,

    /** A published episode of the story by its id, kept; undefined when there is none. */
    publishedEpisode: (storyId: number, episodeId: number) =>
      episodeRefs.load(`${storyId}:${episodeId}`, () => repo.publishedEpisode(storyId, episodeId)),

    /** The published part n of the story, kept with its text; undefined when there is none. */
    publishedPart: partRow,

    /** Whether the reader has an active subscription to the billing app (from their kept rows). */
    subscribed: async (userId: number, appId: string) => (await readerOf(userId)).apps.has(appId),

    /** The details without episode text, for anyone. */
    preview: (storyId: number, viewer: Viewer | null) => details(storyId, 1, viewer, false),

    /** The details with the text of part n, for a viewer allowed to read it. */
    part: (storyId: number, n: number, viewer: Viewer) => details(storyId, n, viewer, true),

    /** The same as part, as what every reader shares and what is this viewer's own. */
    partView: (storyId: number, n: number, viewer: Viewer) => detailsView(storyId, n, viewer, true),

    keptPartView,

    /** Where details answers get their audioBooks from (the audio module). */
    useAudio: (source: AudioBooksSource) => {
      audio = source;
    },
  };
}
export type StoriesService = ReturnType<typeof storiesService>;
