import { useParams } from 'react-router';
import { graphemes } from '@kathamala/domain';
import { isApiError } from '../api/client.ts';
import { useAuthorStories } from '../api/queries.ts';
import { ErrorNotice, InfoNotice } from '../components/Notice.tsx';
import { SkeletonLines } from '../components/Skeleton.tsx';
import { useServerStatus } from '../config.tsx';
import { textLang } from '../features/stories/lang.ts';
import { StoryGrid } from '../features/stories/StoryGrid.tsx';
import { useI18n } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import { NotFoundPage } from './NotFoundPage.tsx';
import styles from './AuthorPage.module.css';

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
          <p className={styles.count}>
            {stories.length === 1 ? t('author.countOne') : t('author.count', { n: stories.length })}
          </p>
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
        />
      </section>
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
