import { Link, useParams } from 'react-router';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPaths, formatCount, graphemes } from '@kathamala/domain';
import { isApiError } from '../api/client.ts';
import { useAuthorStories, useMe } from '../api/queries.ts';
import { afterFollow, setFollow, useAuthorFollow } from '../api/social.ts';
import { ErrorNotice, InfoNotice } from '../components/Notice.tsx';
import { SkeletonLines } from '../components/Skeleton.tsx';
import { useServerStatus } from '../config.tsx';
import { useSession } from '../features/auth/useSession.ts';
import { textLang } from '../features/stories/lang.ts';
import { StoryGrid } from '../features/stories/StoryGrid.tsx';
import { useI18n } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import { NotFoundPage } from './NotFoundPage.tsx';
import ui from '../components/ui.module.css';
import styles from './AuthorPage.module.css';
import { ContestBadges } from '../features/campaigns/ContestBadges.tsx';

const positiveId = (raw: string | undefined): number | null =>
  raw && /^\d{1,9}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;

/** /author/{authorId}/: the author's name, bio and public stories (server-rendered). */
export default function AuthorPage() {
  const authorId = positiveId(useParams().authorId);
  if (!authorId) return <NotFoundPage />;
  return <AuthorView key={authorId} authorId={authorId} />;
}

function AuthorView({ authorId }: { authorId: number }) {
  const { t } = useI18n();
  // The server already found no such author: say so at once instead of asking again.
  const missing = useServerStatus() === 404;
  const query = useAuthorStories(missing ? undefined : authorId);
  const notFound =
    missing || (isApiError(query.error) && query.error.status === 404 && !query.data);
  const author = query.data?.author;
  useDocumentTitle(author?.name ?? (notFound ? t('notFound.title') : undefined));

  if (notFound) return <InfoNotice>{t('author.notFound')}</InfoNotice>;
  if (!query.data) {
    if (query.isError)
      return <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />;
    return (
      <div role="status" aria-busy="true" className={styles.page}>
        <span className="visually-hidden">{t('common.loading')}</span>
        <SkeletonLines lines={4} />
      </div>
    );
  }

  const { stories } = query.data;
  const name = query.data.author.name;
  const nameLang = textLang(name);
  const bio = query.data.author.bio.trim();
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <span className={styles.monogram} aria-hidden="true" lang={nameLang}>
          {initial(name)}
        </span>
        <div className={styles.heading}>
          <p className={styles.label}>{t('author.label')}</p>
          <h1 className={styles.name} lang={nameLang}>
            {name}
          </h1>
          <p className={styles.count}>{t('author.count', { n: stories.length })}</p>
          <FollowBar authorId={authorId} />
          <ContestBadges authorId={authorId} />
        </div>
        {bio && (
          <div className={styles.bio} lang={textLang(bio)}>
            {bio.split(/\n\s*\n/).map((paragraph, i) => (
              <p key={i}>{paragraph}</p>
            ))}
          </div>
        )}
      </header>
      <section className={styles.stories} aria-labelledby="author-stories">
        <h2 id="author-stories" className={styles.storiesTitle}>
          <span lang={nameLang}>{t('author.stories', { name })}</span>
        </h2>
        <StoryGrid
          stories={stories}
          error={null}
          onRetry={() => void query.refetch()}
          empty={t('author.empty', { name })}
          eagerCovers
          headingLevel={3}
        />
      </section>
    </div>
  );
}

/**
 * The follower count and a Follow button (client-side: the count is public, following is
 * personal). Visitors are sent to log in and come back; an author sees no button on their own
 * page. The row keeps its height while it loads, so the server-rendered page does not move.
 */
function FollowBar({ authorId }: { authorId: number }) {
  const { t } = useI18n();
  const session = useSession();
  const reader = session.status === 'reader';
  const state = useAuthorFollow(authorId, session.status !== 'unknown');
  const me = useMe(reader);
  const queryClient = useQueryClient();
  const userId = state.data?.userId ?? null;
  const mutation = useMutation({
    mutationFn: (following: boolean) => setFollow(userId!, following),
    onSuccess: (answer) => afterFollow(queryClient, authorId, answer),
  });
  const data = state.data;
  const own = reader && userId !== null && me.data?.userId === userId;
  const here = apiPaths.authorPage(authorId);

  return (
    <div className={styles.follow}>
      {data && (
        <span className={styles.followers}>
          {t('author.followers', { count: data.followers, n: formatCount(data.followers) })}
        </span>
      )}
      {data && userId !== null && !reader && session.status === 'visitor' && (
        <Link
          className={ui.buttonSecondary}
          to={`/login?redirect=${encodeURIComponent(here)}`}
          title={t('author.followHint')}
        >
          {t('author.follow')}
        </Link>
      )}
      {data && userId !== null && reader && me.data && !own && (
        <button
          type="button"
          className={data.following ? ui.buttonSecondary : ui.button}
          disabled={mutation.isPending}
          onClick={() => mutation.mutate(!data.following)}
        >
          {t(data.following ? 'author.following' : 'author.follow')}
        </button>
      )}
    </div>
  );
}

/** The first letter of a name, whole: a Sinhala letter keeps its signs and a joined conjunct. */
const initial = (name: string): string => {
  const parts = graphemes(name.trim());
  let letter = parts[0] ?? '';
  for (let i = 1; letter.endsWith('\u200D') && i < parts.length; i++) letter += parts[i];
  return letter.toUpperCase();
};
