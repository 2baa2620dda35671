import { createElement, type ComponentType, type ReactElement } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { Layout } from './components/Layout.tsx';
import DetailsPage from './pages/DetailsPage.tsx';
import HomePage from './pages/HomePage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';

/** A page whose code loads when first shown (suspending meanwhile), or earlier through preload. */
type LazyPage = ComponentType & {
  preload: () => Promise<void>;
  /** The page's module as the build's manifest names it (`src/pages/LoginPage.tsx`). */
  source: string;
};

/**
 * Like React's lazy(), with a preload the browser calls before hydrating: a page that suspends
 * while Preact hydrates keeps the server's markup and never updates it, so the first page's code
 * must be at hand before hydration starts.
 */
function lazyPage(source: string, load: () => Promise<{ default: ComponentType }>): LazyPage {
  let loaded: ComponentType | undefined;
  let failed: { error: unknown } | undefined;
  let pending: Promise<void> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (module) => {
        loaded = module.default;
      },
      (error: unknown) => {
        // The error boundary shows it once; its retry loads again (a network blip is not final).
        failed = { error };
        pending = undefined;
        throw error;
      },
    ));
  const Page = () => {
    if (loaded) return createElement(loaded);
    if (failed) {
      const { error } = failed;
      failed = undefined;
      throw error;
    }
    // Suspense waits for a thrown promise, in Preact and in React alike.
    throw preload().catch(() => {});
  };
  return Object.assign(Page, { preload, source });
}

// Home and story details are the pages people land on from links and search: they ship in the
// main bundle. The rest load when first visited.
const CategoryPage = lazyPage(
  'src/pages/CategoryPage.tsx',
  () => import('./pages/CategoryPage.tsx'),
);
const LoginPage = lazyPage('src/pages/LoginPage.tsx', () => import('./pages/LoginPage.tsx'));
const SignupPage = lazyPage('src/pages/SignupPage.tsx', () => import('./pages/SignupPage.tsx'));
const AccountPage = lazyPage('src/pages/AccountPage.tsx', () => import('./pages/AccountPage.tsx'));
const SearchPage = lazyPage('src/pages/SearchPage.tsx', () => import('./pages/SearchPage.tsx'));
// The publishing workspace carries the editor (TipTap): only authors ever download it.
const PublishPage = lazyPage('src/pages/PublishPage.tsx', () => import('./pages/PublishPage.tsx'));
const AuthorPage = lazyPage('src/pages/AuthorPage.tsx', () => import('./pages/AuthorPage.tsx'));
const ProfilePage = lazyPage('src/pages/ProfilePage.tsx', () => import('./pages/ProfilePage.tsx'));
const StatisticsPage = lazyPage(
  'src/pages/StatisticsPage.tsx',
  () => import('./pages/StatisticsPage.tsx'),
);
const BookmarksPage = lazyPage(
  'src/pages/BookmarksPage.tsx',
  () => import('./pages/BookmarksPage.tsx'),
);
const LeaderboardPage = lazyPage(
  'src/pages/LeaderboardPage.tsx',
  () => import('./pages/LeaderboardPage.tsx'),
);
// The community area (issue 28): the feed, a post, the editors' queue and the admin page.
const CommunityPage = lazyPage(
  'src/pages/CommunityPage.tsx',
  () => import('./pages/CommunityPage.tsx'),
);
const CommunityPostPage = lazyPage(
  'src/pages/CommunityPostPage.tsx',
  () => import('./pages/CommunityPostPage.tsx'),
);
const CommunityReviewsPage = lazyPage(
  'src/pages/CommunityReviewsPage.tsx',
  () => import('./pages/CommunityReviewsPage.tsx'),
);
const CommunityAdminPage = lazyPage(
  'src/pages/CommunityAdminPage.tsx',
  () => import('./pages/CommunityAdminPage.tsx'),
);
// The page the links in our e-mails open (the mailing list).
const MailPage = lazyPage(
  'src/features/mail/MailPage.tsx',
  () => import('./features/mail/MailPage.tsx'),
);

const CampaignsPage = lazyPage(
  'src/pages/CampaignsPage.tsx',
  () => import('./pages/CampaignsPage.tsx'),
);
const CampaignPage = lazyPage(
  'src/pages/CampaignPage.tsx',
  () => import('./pages/CampaignPage.tsx'),
);
const CampaignManagePage = lazyPage(
  'src/pages/CampaignManagePage.tsx',
  () => import('./pages/CampaignManagePage.tsx'),
);

const NOT_FOUND_ID = 'not-found';

/** The route table of SPEC.md 2 (pages that exist so far). */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'category', element: <CategoryPage /> },
      { path: 'details/:storyId/:partId?', element: <DetailsPage /> },
      { path: 'login', element: <LoginPage /> },
      { path: 'signup', element: <SignupPage /> },
      { path: 'account', element: <AccountPage /> },
      { path: 'search', element: <SearchPage /> },
      { path: 'publish/story', element: <PublishPage /> },
      { path: 'author/:authorId', element: <AuthorPage /> },
      { path: 'profile/:userId', element: <ProfilePage /> },
      { path: 'statistics', element: <StatisticsPage /> },
      { path: 'bookmarks', element: <BookmarksPage /> },
      { path: 'leaderboard', element: <LeaderboardPage /> },
      { path: 'mail', element: <MailPage /> },
      { path: 'community', element: <CommunityPage /> },
      { path: 'community/post/:postId', element: <CommunityPostPage /> },
      // A person's community page is their profile (mentions already link to /profile/{id}/).
      { path: 'community/profile/:userId', element: <ProfilePage /> },
      { path: 'community/reviews', element: <CommunityReviewsPage /> },
      { path: 'community/admin', element: <CommunityAdminPage /> },
      { path: 'campaigns', element: <CampaignsPage /> },
      { path: 'campaigns/manage', element: <CampaignManagePage /> },
      { path: 'campaigns/:campaignId', element: <CampaignPage /> },
      { id: NOT_FOUND_ID, path: '*', element: <NotFoundPage /> },
    ],
  },
];

/** True when no page of the app answers this path (the 404 page renders). */
export const isNotFound = (pathname: string): boolean =>
  (matchRoutes(routes, pathname) ?? []).some((m) => m.route.id === NOT_FOUND_ID);

/**
 * Loads the code of the lazy page that answers this path, if any (before hydrating it), and
 * names its module (the server can then have the browser fetch its chunk with the entry).
 */
export const preloadPage = async (pathname: string): Promise<string[]> => {
  const sources: string[] = [];
  for (const match of matchRoutes(routes, pathname) ?? []) {
    const type = (match.route.element as ReactElement | undefined)?.type as Partial<LazyPage>;
    if (typeof type?.preload !== 'function' || !type.source) continue;
    await type.preload();
    sources.push(type.source);
  }
  return sources;
};
