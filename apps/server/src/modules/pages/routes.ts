import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  apiPaths,
  CATEGORIES,
  campaignPaths,
  communityPaths,
  isMissingPart,
  packBootData,
  parseOngoing,
  parsePage,
  parseSort,
  ResultCode,
  UI_LANG_COOKIE,
  type BootData,
  type LeaderboardBy,
  type LeaderboardPeriod,
  type ClientConfig,
  type SignInProvidersAnswer,
  type UiLang,
} from '@kathamala/domain';
import { AppError } from '../../errors.ts';
import {
  prepareAnswer,
  sendPrepared,
  urlMatcher,
  type PreparedAnswer,
} from '../../plugins/response-cache.ts';
import type { StoriesService } from '../stories/service.ts';
import type { LeaderboardService } from '../leaderboard/service.ts';
import type { CommunityService } from '../community/service.ts';
import type { OAuthService } from '../oauth/service.ts';
import type { CampaignsService } from '../campaigns/service.ts';
import type { ContestService } from '../campaigns/contest-service.ts';
import { composePage, type WebBuild } from './ssr.ts';

/** Client-side routes that exist; anything else renders the app's 404 page with status 404. */
const KNOWN_ROUTES = [
  /^\/$/,
  /^\/category\/?$/,
  /^\/details\/\d+(\/\d+)?\/?$/,
  /^\/(login|signup|account|search)\/?$/,
  /^\/author\/\d+\/?$/,
  /^\/profile\/\d+\/?$/,
  /^\/publish\/story\/?$/,
  /^\/statistics\/?$/,
  /^\/(bookmarks|leaderboard)\/?$/,
  /^\/mail\/?$/,
  /^\/community(\/(reviews|admin))?\/?$/,
  /^\/community\/post\/\d+\/?$/,
  /^\/community\/profile\/\d+\/?$/,
  /^\/campaigns(\/(manage|\d+))?\/?$/,
];

const RENDER_CACHE_MS = 10_000;
/** How long past its time a page may still go out while its next rendering runs. */
const STALE_WHILE_RENDERING_MS = 10_000;
const LEADERBOARD_BY: readonly LeaderboardBy[] = ['reads', 'rating'];
const LEADERBOARD_PERIODS: readonly LeaderboardPeriod[] = ['week', 'month', 'all'];
const MAX_ID = 2_147_483_647;
const RENDER_CACHE_MAX = 500;

// Compiled once: this runs on every page request, cached or not.
const UI_LANG = new RegExp(`(?:^|;\\s*)${UI_LANG_COOKIE}=(si|en)(?:;|$)`);
const uiLangOf = (request: FastifyRequest): UiLang =>
  request.headers.cookie && UI_LANG.exec(request.headers.cookie)?.[1] === 'si' ? 'si' : 'en';

/** Pages that may show the sign-in buttons: a story's wall, login and sign-up. */
const SIGN_IN_PAGES = /^\/(details|login|signup)(\/|$)/;
const SIGN_IN_PROVIDERS = '/api/v1/auth/providers';

/** Headers of every rendered page; Vary: Cookie as the UI language comes from a cookie. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'public, max-age=0, must-revalidate',
  vary: 'Cookie',
};

/** The services whose answers to a visitor the pages show (app.ts passes them in). */
export interface PageServices {
  stories: StoriesService;
  leaderboard: LeaderboardService;
  community: CommunityService;
  signIn: Pick<OAuthService, 'providers'>;
  campaigns: CampaignsService;
  contests: ContestService;
}

/** Server-rendered pages: public pages get their data prefetched so their text is in the HTML. */
export function pageRoutes(
  app: FastifyInstance,
  deps: PageServices & { web: WebBuild | null; config: ClientConfig },
) {
  // Covers on this site's own /images/ go by path: the address repeats three times per cover
  // (src and srcset), and share tags make it absolute again.
  const sameSiteImages = `${deps.config.publicUrl.replace(/\/$/, '')}/images`;
  const clientConfig: ClientConfig =
    deps.config.imagesHost.replace(/\/$/, '') === sameSiteImages
      ? { ...deps.config, imagesHost: '/images' }
      : deps.config;

  /**
   * Keeps what a service answers a visitor (viewer null) under the API path whose route calls
   * it, as that route's `object`: the page asks for it by that path. False when the service
   * refuses (a 404 or 403 the route would answer); any other failure is the page's.
   */
  const keep = async (
    data: Record<string, unknown>,
    path: string,
    read: () => Promise<unknown>,
  ): Promise<boolean> => {
    try {
      data[path] = await read();
      return true;
    } catch (e) {
      if (e instanceof AppError) return false;
      throw e;
    }
  };

  // Rendered public pages are the same for every visitor, so a short cache spares React the work.
  // Entries are prepared answers: a hit sends stored bytes, ETag and compressed variants.
  const cache = new Map<string, PreparedAnswer>();

  /** The data a public page shows, and 404 when its story or author does not exist. */
  const prefetch = async (
    pathname: string,
    query: URLSearchParams,
  ): Promise<{ data: BootData['data']; status: number }> => {
    const data: Record<string, unknown> = {};
    // The sign-in buttons (the wall, /login, /signup) are in the first HTML, not added after it.
    if (SIGN_IN_PAGES.test(pathname)) {
      const answer: SignInProvidersAnswer = { providers: deps.signIn.providers() };
      data[SIGN_IN_PROVIDERS] = answer;
    }
    const trending = async () =>
      (data[apiPaths.trending()] = { trending: await deps.stories.trending() });
    // The list the address asks for (a shared link to page 3 of the newest shows it), keyed as
    // the page will ask for it.
    const list = async (category: string, sorted: boolean) => {
      const q = {
        page: parsePage(query.get('page')),
        category,
        sortBy: sorted ? parseSort(query.get('sort')) : 'rate',
        ongoing: sorted ? parseOngoing(query.get('status')) : 'both',
      } as const;
      data[apiPaths.listV2(q)] = await deps.stories.list(q);
    };
    if (pathname === '/') {
      await Promise.all([
        list('all', true),
        trending(),
        (async () =>
          (data[apiPaths.upcoming()] = { upcomingStories: await deps.stories.upcoming() }))(),
        (async () => (data[apiPaths.premium()] = { premium: await deps.stories.premium() }))(),
      ]);
    } else if (/^\/leaderboard\/?$/.test(pathname)) {
      // The board the address asks for (a shared link shows it); anything else is the default.
      const by = LEADERBOARD_BY.find((b) => b === query.get('by'));
      const period = LEADERBOARD_PERIODS.find((p) => p === query.get('period'));
      await Promise.all([
        trending(),
        (async () =>
          (data[apiPaths.statsAuthors({ by, period })] = await deps.leaderboard.rankings({
            by,
            period,
          })))(),
      ]);
    } else if (/^\/category\/?$/.test(pathname)) {
      const wanted = query.get('c') ?? 'all';
      data[apiPaths.categories()] = CATEGORIES;
      // By rating, whatever else the address says: the category page has no sort of its own.
      if (CATEGORIES.some((c) => c.slug === wanted)) await list(wanted, false);
    } else if (pathname.startsWith('/author/')) {
      const authorId = Number(pathname.split('/')[2]);
      // Beyond an id column's range there is no such author (and the query would fail).
      if (!(authorId >= 1 && authorId <= MAX_ID)) return { data, status: 404 };
      try {
        data[apiPaths.authorStories(authorId)] = await deps.stories.byAuthor(authorId);
      } catch (e) {
        if (e instanceof AppError && e.code === ResultCode.notFound) return { data, status: 404 };
        throw e;
      }
    } else if (/^\/campaigns\/?$/.test(pathname)) {
      await keep(data, campaignPaths.list(), () => deps.campaigns.list());
    } else if (/^\/campaigns\/\d+\/?$/.test(pathname)) {
      // A campaign's page with its ranking as a visitor reads them.
      const id = Number(pathname.split('/')[2]);
      if (
        !(id >= 1 && id <= MAX_ID) ||
        !(await keep(data, campaignPaths.detail(id), () => deps.campaigns.detail(id)))
      )
        return { data, status: 404 };
      await keep(data, campaignPaths.stats(id), () => deps.contests.standings(id));
    } else if (/^\/community\/?$/.test(pathname)) {
      // The tab and page the address names, as a visitor reads them (Following is personal).
      const page = parsePage(query.get('page'));
      const tab = query.get('tab');
      if (tab === 'pinned')
        await keep(data, communityPaths.pinned(page), () => deps.community.pinned(page));
      else if (tab !== 'following')
        await keep(data, communityPaths.feed(page), () => deps.community.feed(page));
    } else if (pathname.startsWith('/community/post/')) {
      const postId = Number(pathname.split('/')[3]);
      if (!(postId >= 1 && postId <= MAX_ID)) return { data, status: 404 };
      // A post others may not see (held, rejected, removed) is no page for a visitor.
      const post = async () => ({ post: await deps.community.post(postId, null) });
      if (!(await keep(data, communityPaths.postById(postId), post))) return { data, status: 404 };
      await keep(data, communityPaths.comments(postId, 1), () =>
        deps.community.comments(postId, null, 1),
      );
    } else if (/^\/(community\/)?profile\/\d+\/?$/.test(pathname)) {
      const userId = Number(/(\d+)\/?$/.exec(pathname)![1]);
      if (!(userId >= 1 && userId <= MAX_ID)) return { data, status: 404 };
      const profile = () => deps.community.profile(userId, null);
      if (!(await keep(data, communityPaths.profile(userId), profile)))
        return { data, status: 404 };
      const page = parsePage(query.get('page'));
      await keep(data, communityPaths.timeline(userId, page), () =>
        deps.community.timeline(userId, null, page),
      );
    } else if (pathname.startsWith('/details/')) {
      const [, , id, part] = pathname.split('/');
      const storyId = Number(id);
      try {
        const preview = await deps.stories.preview(storyId, null);
        data[apiPaths.preview(storyId)] = preview;
        // A part that is not there (0, or past the last one) is no page: 404, and the preview
        // stays in the boot data, so the app hydrates the same not-found page.
        if (isMissingPart(Number(part || 1), preview.numberOfparts)) return { data, status: 404 };
        await Promise.all([
          trending(),
          (async () =>
            (data[apiPaths.authorStories(preview.author.authorId)] = await deps.stories.byAuthor(
              preview.author.authorId,
            )))(),
        ]);
      } catch (e) {
        if (e instanceof AppError && e.code === ResultCode.notFound) return { data, status: 404 };
        throw e;
      }
    }
    return { data, status: 200 };
  };

  // The raw URL: a hit parses nothing (an address spelled two ways is two entries).
  const cacheKey = (request: FastifyRequest, uiLang: UiLang) => `${uiLang} ${request.url}`;
  // Renderings under way, by cache key.
  const rendering = new Map<string, Promise<PreparedAnswer>>();
  /**
   * The page to send: a fresh one, or, while its next rendering runs, the expired one (as the
   * response cache does: a drop removes both, so only time has passed over what this sends).
   */
  const fresh = (key: string): PreparedAnswer | null => {
    const hit = cache.get(key);
    if (!hit) return null;
    const age = Date.now() - hit.at;
    if (age < RENDER_CACHE_MS) return hit;
    return rendering.has(key) && age < RENDER_CACHE_MS + STALE_WHILE_RENDERING_MS ? hit : null;
  };

  /**
   * A rendered page still fresh is sent in preParsing, after every onRequest hook (security
   * headers, load shedding, the rate limit), skipping the rest of the request's hooks.
   */
  const sendHit = (
    request: FastifyRequest,
    reply: FastifyReply,
    _payload: unknown,
    done: () => void,
  ) => {
    const hit = deps.web ? fresh(cacheKey(request, uiLangOf(request))) : null;
    if (!hit) return done();
    sendPrepared(request, reply, hit);
  };

  /** Prefetches a page's data and renders it (status 404 for an unknown address). */
  const renderPage = async (address: string, uiLang: UiLang): Promise<PreparedAnswer> => {
    const web = deps.web!;
    const url = new URL(address, 'http://local');
    const known = KNOWN_ROUTES.some((r) => r.test(url.pathname));
    const { data, status } = known
      ? await prefetch(url.pathname, url.searchParams)
      : { data: {}, status: 404 };
    const boot: BootData = { config: clientConfig, data, uiLang, status };
    const rendered = await web.render(url.pathname + url.search, boot);
    const styles = (rendered.modules ?? []).flatMap((m) => web.pageStyles?.[m] ?? []);
    const html = composePage(web.template, packBootData(boot), rendered, web.catalogues, styles);
    return prepareAnswer(rendered.status, html, PAGE_HEADERS);
  };

  const render = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!deps.web) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built yet. Run `npm run build` (or `npm start`), then reload.');
    }
    const uiLang = uiLangOf(request);
    const key = cacheKey(request, uiLang);
    const hit = fresh(key);
    if (hit) return sendPrepared(request, reply, hit);

    // One rendering per page at a time: readers arriving while it runs (a page just expired
    // or dropped under load) wait for it instead of each running React and the queries again.
    let pending = rendering.get(key);
    if (!pending) {
      const mine: Promise<PreparedAnswer> = renderPage(request.url, uiLang)
        .then((answer) => {
          // Not kept when a drop or clear came meanwhile: its data may predate the change.
          if (rendering.get(key) === mine) {
            if (cache.size >= RENDER_CACHE_MAX) cache.clear();
            cache.set(key, answer);
          }
          return answer;
        })
        .finally(() => {
          if (rendering.get(key) === mine) rendering.delete(key);
        });
      rendering.set(key, mine);
      pending = mine;
    }
    const answer = await pending;
    return sendPrepared(request, reply, answer);
  };

  // Pages are compressed once per rendering (prepareAnswer), not per request by @fastify/compress.
  const options = { schema: { hide: true }, compress: false, preParsing: sendHit } as const;
  app.get('/', options, render);
  app.get('/category', options, render);
  app.get('/details/:storyId/', options, render);
  app.get('/details/:storyId/:partId/', options, render);
  app.get('/author/:authorId/', options, render);
  app.get('/community', options, render);
  app.get('/campaigns', options, render);
  app.get('/campaigns/:campaignId', options, render);
  app.get('/community/post/:postId', options, render);
  app.get('/profile/:userId/', options, render);
  return {
    render,
    /** Drops every rendered page. */
    clear: () => {
      cache.clear();
      rendering.clear();
    },
    /** Drops the pages whose URL starts with a prefix (see urlMatcher) or satisfies a predicate. */
    drop: (match: string | ((url: string) => boolean)) => {
      const test = urlMatcher(match);
      const url = (key: string) => key.slice(key.indexOf(' ') + 1);
      for (const key of cache.keys()) if (test(url(key))) cache.delete(key);
      for (const key of rendering.keys()) if (test(url(key))) rendering.delete(key);
    },
    /**
     * The page a form was posted from, when it is one of ours: a form submitted before the app
     * has started (its scripts load after the first paint) is posted natively, and goes back
     * to its page (303) without its fields in any address or log. null for anything else.
     */
    formPage: (url: string): string | null => {
      const path = url.split('?')[0]!;
      return KNOWN_ROUTES.some((r) => r.test(path)) ? path : null;
    },
  };
}
