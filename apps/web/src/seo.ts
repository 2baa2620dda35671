import {
  apiPaths,
  CATEGORIES,
  communityPaths,
  type CommunityProfile,
  type Post,
  coverUrl,
  detailsPath,
  isMissingPart,
  truncateGraphemes,
  type AuthorProfile,
  type AuthorRankings,
  type BootData,
  type Category,
  type LeaderboardBy,
  type LeaderboardPeriod,
  type StoryDetails,
  type StoryListItem,
  type TrendingItem,
  type UiLang,
} from '@kathamala/domain';
import { translator, type MessageKey, type Translate } from './i18n/index.tsx';
import { campaignMeta } from './features/campaigns/meta.ts';
import { pageTitle, SITE_NAME, type PageMeta } from './page-title.ts';

const DESCRIPTION_GRAPHEMES = 200;

const categoryName = (
  slug: string | null,
  lang: UiLang,
  categories: Category[],
): string | undefined => categories.find((c) => c.slug === slug)?.name[lang];

/** What a shared link and a search engine should see for a URL, from the data the server prefetched. */
export function metaForUrl(
  url: string,
  boot: Pick<BootData, 'config' | 'data' | 'uiLang'>,
): PageMeta {
  const t = translator(boot.uiLang);
  const { pathname, searchParams } = new URL(url, 'http://localhost');
  const base: PageMeta = {
    title: pageTitle(t),
    description: t('meta.description'),
    canonicalPath: pathname,
    type: 'website',
  };

  const details = /^\/details\/(\d+)(?:\/(\d+))?\/?$/.exec(pathname);
  if (details) {
    const storyId = Number(details[1]);
    const preview = boot.data[apiPaths.preview(storyId)] as StoryDetails | undefined;
    if (!preview || isMissingPart(Number(details[2] ?? 1), preview.numberOfparts))
      return { ...base, title: pageTitle(t, t('notFound.title')), noindex: true };
    return {
      title: pageTitle(t, preview.story.title),
      description: truncateGraphemes(preview.story.description, DESCRIPTION_GRAPHEMES, '…'),
      // Every episode page of a story points at the story: visitors see the same page on each.
      canonicalPath: detailsPath(storyId),
      image: coverUrl(boot.config.imagesHost, storyId),
      type: 'article',
    };
  }
  const author = /^\/author\/(\d+)\/?$/.exec(pathname);
  if (author) {
    const authorId = Number(author[1]);
    const page = boot.data[apiPaths.authorStories(authorId)] as
      { author: AuthorProfile; stories: StoryListItem[] } | undefined;
    if (!page) return { ...base, title: pageTitle(t, t('notFound.title')), noindex: true };
    const { name, bio } = page.author;
    const first = page.stories[0];
    return {
      title: pageTitle(t, name),
      description: bio.trim()
        ? truncateGraphemes(bio.trim().replace(/\s+/g, ' '), DESCRIPTION_GRAPHEMES, '…')
        : t('author.metaDescription', { name }),
      canonicalPath: apiPaths.authorPage(authorId),
      // An author has no picture of their own: the cover of their first story shows who they are.
      image: first ? coverUrl(boot.config.imagesHost, first.storyId) : undefined,
      type: 'profile',
    };
  }
  if (pathname === '/') return base;
  // The leaderboard is public and worth finding; the reader's own pages are not.
  if (/^\/leaderboard\/?$/.test(pathname)) return leaderboardMeta(searchParams, boot, t, base);
  if (/^\/category\/?$/.test(pathname)) {
    const slug = searchParams.get('c');
    const categories = (boot.data[apiPaths.categories()] as Category[] | undefined) ?? [
      ...CATEGORIES,
    ];
    const name = categoryName(slug, boot.uiLang, categories);
    return {
      ...base,
      title: pageTitle(t, name ?? t('category.title')),
      canonicalPath: name && slug ? `/category?c=${encodeURIComponent(slug)}` : '/category',
    };
  }
  const community = communityMeta(pathname, searchParams, boot, t, base);
  if (community) return community;
  const campaign = campaignMeta(pathname, boot, t, base);
  if (campaign) return campaign;
  const simple: Record<string, MessageKey> = {
    '/search': 'search.title',
    '/login': 'auth.loginTitle',
    '/signup': 'auth.signupTitle',
    '/account': 'account.title',
    '/statistics': 'stats.title',
    '/bookmarks': 'bookmarks.title',
    '/publish/story': 'nav.write',
    '/mail': 'mail.title',
  };
  const key = simple[pathname.replace(/\/$/, '')];
  if (key) return { ...base, title: pageTitle(t, t(key)), noindex: true };
  return { ...base, title: pageTitle(t, t('notFound.title')), noindex: true };
}

const oneLine = (text: string): string =>
  truncateGraphemes(text.trim().replace(/\s+/g, ' '), DESCRIPTION_GRAPHEMES, '…');

/**
 * The community's pages: the feed, a post (its writer, its text, its first image) and a person's
 * profile (name, bio, picture), from what the server prefetched as a visitor reads it. A post
 * or profile that is not there is a 404 page; the editors' and admins' pages are not indexed.
 */
function communityMeta(
  pathname: string,
  searchParams: URLSearchParams,
  boot: Pick<BootData, 'data'>,
  t: Translate,
  base: PageMeta,
): PageMeta | null {
  const missing = { ...base, title: pageTitle(t, t('notFound.title')), noindex: true };
  if (/^\/community\/?$/.test(pathname)) {
    const tab = searchParams.get('tab');
    const page = Number(searchParams.get('page') ?? 1);
    const query = new URLSearchParams();
    if (tab === 'pinned' || tab === 'following') query.set('tab', tab);
    if (page > 1) query.set('page', String(page));
    return {
      ...base,
      title: pageTitle(t, t('community.title')),
      description: t('community.lead'),
      canonicalPath: query.toString() ? `/community?${query.toString()}` : '/community',
      // The reader's own feed is theirs alone.
      noindex: tab === 'following' || undefined,
    };
  }
  if (/^\/community\/(reviews|admin)\/?$/.test(pathname))
    return {
      ...base,
      title: pageTitle(t, t(pathname.includes('admin') ? 'admin.title' : 'reviews.title')),
      noindex: true,
    };
  const post = /^\/community\/post\/(\d+)\/?$/.exec(pathname);
  if (post) {
    const postId = Number(post[1]);
    const found = (boot.data[communityPaths.postById(postId)] as { post: Post } | undefined)?.post;
    if (!found) return missing;
    const name = found.author.username;
    return {
      title: pageTitle(t, t('post.by', { name })),
      description: found.text.trim() ? oneLine(found.text) : t('post.metaDescription', { name }),
      canonicalPath: `/community/post/${postId}`,
      image: found.images[0]?.src ?? found.author.avatar?.src,
      type: 'article',
    };
  }
  const person = /^\/(?:community\/)?profile\/(\d+)\/?$/.exec(pathname);
  if (person) {
    const userId = Number(person[1]);
    const profile = boot.data[communityPaths.profile(userId)] as CommunityProfile | undefined;
    if (!profile) return missing;
    const name = profile.username;
    return {
      title: pageTitle(t, name),
      description: profile.bio?.trim()
        ? oneLine(profile.bio)
        : t('profile.metaDescription', { name }),
      // Both addresses show the same person; the one mentions link to is canonical.
      canonicalPath: apiPaths.profilePage(userId),
      image: profile.avatar?.src,
      type: 'profile',
    };
  }
  return null;
}

const LEADERBOARD_BY: readonly LeaderboardBy[] = ['reads', 'rating'];
const LEADERBOARD_PERIODS: readonly LeaderboardPeriod[] = ['week', 'month', 'all'];
/** Names a shared leaderboard link lists in its description. */
const LEADERBOARD_NAMES = 3;

/**
 * A shared leaderboard link: the board its address names (the same board the server
 * prefetched), its first authors in the description, and a picture from what is trending
 * (an author has no picture of their own, and a board has none).
 */
function leaderboardMeta(
  searchParams: URLSearchParams,
  boot: Pick<BootData, 'config' | 'data'>,
  t: Translate,
  base: PageMeta,
): PageMeta {
  const by = LEADERBOARD_BY.find((b) => b === searchParams.get('by'));
  const period = LEADERBOARD_PERIODS.find((p) => p === searchParams.get('period'));
  const board = boot.data[apiPaths.statsAuthors({ by, period })] as AuthorRankings | undefined;
  const query = new URLSearchParams();
  if (by && by !== 'reads') query.set('by', by);
  if (period && period !== 'week') query.set('period', period);
  const names = (board?.authors ?? [])
    .slice(0, LEADERBOARD_NAMES)
    .map((a) => `${a.position}. ${a.name}`)
    .join(', ');
  const heading = t(by === 'rating' ? 'leaderboard.headingRating' : 'leaderboard.headingReads');
  const first = (boot.data[apiPaths.trending()] as { trending: TrendingItem[] } | undefined)
    ?.trending[0];
  return {
    ...base,
    title: pageTitle(t, t('leaderboard.title')),
    description: names
      ? `${heading} (${t(`leaderboard.${period ?? 'week'}`)}): ${names}`
      : t('leaderboard.lead'),
    canonicalPath: query.toString() ? `/leaderboard/?${query.toString()}` : '/leaderboard/',
    image: first ? coverUrl(boot.config.imagesHost, first.storyId) : undefined,
  };
}

const escapeHtml = (s: string): string =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** The <head> tags of a page: title, description, canonical, Open Graph and Twitter card. */
export function headHtml(meta: PageMeta, publicUrl: string, lang: UiLang): string {
  const absolute = (path: string) =>
    /^https?:\/\//.test(path) ? path : `${publicUrl.replace(/\/$/, '')}${path}`;
  const canonical = absolute(meta.canonicalPath);
  const tags: [string, string, string][] = [
    ['name', 'description', meta.description],
    ['property', 'og:site_name', SITE_NAME],
    ['property', 'og:type', meta.type],
    ['property', 'og:title', meta.title],
    ['property', 'og:description', meta.description],
    ['property', 'og:url', canonical],
    ['property', 'og:locale', lang === 'si' ? 'si_LK' : 'en_GB'],
    ['name', 'twitter:card', meta.image ? 'summary_large_image' : 'summary'],
    ['name', 'twitter:title', meta.title],
    ['name', 'twitter:description', meta.description],
  ];
  if (meta.image) {
    const image = absolute(meta.image);
    tags.push(['property', 'og:image', image], ['name', 'twitter:image', image]);
  }
  if (meta.noindex) tags.push(['name', 'robots', 'noindex']);
  return [
    `<title>${escapeHtml(meta.title)}</title>`,
    ...tags.map(
      ([attr, name, content]) => `<meta ${attr}="${name}" content="${escapeHtml(content)}" />`,
    ),
    `<link rel="canonical" href="${escapeHtml(canonical)}" />`,
  ].join('\n    ');
}
