import { lazy } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { Layout } from './components/Layout.tsx';
import DetailsPage from './pages/DetailsPage.tsx';
import HomePage from './pages/HomePage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';

// Home and story details are the pages people land on from links and search: they ship in the
// main bundle. The rest load when first visited.
const CategoryPage = lazy(() => import('./pages/CategoryPage.tsx'));
const LoginPage = lazy(() => import('./pages/LoginPage.tsx'));
const SignupPage = lazy(() => import('./pages/SignupPage.tsx'));
const AccountPage = lazy(() => import('./pages/AccountPage.tsx'));
const SearchPage = lazy(() => import('./pages/SearchPage.tsx'));
// The publishing workspace carries the editor (TipTap): only authors ever download it.
const PublishPage = lazy(() => import('./pages/PublishPage.tsx'));
const AuthorPage = lazy(() => import('./pages/AuthorPage.tsx'));
const StatisticsPage = lazy(() => import('./pages/StatisticsPage.tsx'));
const BookmarksPage = lazy(() => import('./pages/BookmarksPage.tsx'));
const LeaderboardPage = lazy(() => import('./pages/LeaderboardPage.tsx'));
// The page the links in our e-mails open (the mailing list).
const MailPage = lazy(() => import('./features/mail/MailPage.tsx'));

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
      { path: 'statistics', element: <StatisticsPage /> },
      { path: 'bookmarks', element: <BookmarksPage /> },
      { path: 'leaderboard', element: <LeaderboardPage /> },
      { path: 'mail', element: <MailPage /> },
      { id: NOT_FOUND_ID, path: '*', element: <NotFoundPage /> },
    ],
  },
];

/** True when no page of the app answers this path (the 404 page renders). */
export const isNotFound = (pathname: string): boolean =>
  (matchRoutes(routes, pathname) ?? []).some((m) => m.route.id === NOT_FOUND_ID);
