import { Link, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { apiPaths, type UserProfile } from '@kathamala/domain';
import { apiRequest, isApiError } from '../api/client.ts';
import { ErrorNotice, InfoNotice } from '../components/Notice.tsx';
import { SkeletonLines } from '../components/Skeleton.tsx';
import { formatFullDate } from '../features/account/format.ts';
import { textLang } from '../features/stories/lang.ts';
import { useI18n } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import { NotFoundPage } from './NotFoundPage.tsx';
import styles from './AuthorPage.module.css';

/**
 * /profile/{userId}/: a reader as others see them, where a mention of them in a comment leads:
 * the name, since when they read here, and their author page when they write too.
 */
export default function ProfilePage() {
  const raw = useParams().userId ?? '';
  if (!/^[1-9]\d{0,8}$/.test(raw)) return <NotFoundPage />;
  const userId = Number(raw);
  return <Profile key={userId} userId={userId} />;
}

function Profile({ userId }: { userId: number }) {
  const { t, lang } = useI18n();
  const path = apiPaths.userProfile(userId);
  const query = useQuery({
    queryKey: [path],
    queryFn: ({ signal }) => apiRequest<UserProfile>(path, { signal }),
  });
  const notFound = isApiError(query.error) && query.error.status === 404;
  useDocumentTitle(query.data?.username ?? (notFound ? t('notFound.title') : undefined));

  if (notFound) return <InfoNotice>{t('profile.notFound')}</InfoNotice>;
  if (!query.data) {
    if (query.isError)
      return <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />;
    return <SkeletonLines lines={3} label={t('common.loading')} />;
  }

  const { username, since, authorId } = query.data;
  return (
    <div className={styles.page}>
      <header className={styles.heading}>
        <p className={styles.label}>{t(authorId === null ? 'profile.reader' : 'author.label')}</p>
        <h1 className={styles.name} lang={textLang(username)}>
          {username}
        </h1>
        <p className={styles.count}>{t('profile.since', { date: formatFullDate(since, lang) })}</p>
        {authorId !== null && (
          <p>
            <Link to={apiPaths.authorPage(authorId)}>{t('profile.authorPage')}</Link>
          </p>
        )}
      </header>
    </div>
  );
}
