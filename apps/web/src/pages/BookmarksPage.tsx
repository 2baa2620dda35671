import { useId } from 'react';
import { Link } from 'react-router';
import { detailsPath, type BookmarkItem } from '@kathamala/domain';
import { useBookmarks } from '../api/social.ts';
import { Cover } from '../components/Cover.tsx';
import { ErrorNotice, InfoNotice } from '../components/Notice.tsx';
import { SkeletonLines } from '../components/Skeleton.tsx';
import { useSession } from '../features/auth/useSession.ts';
import { storyLang, textLang } from '../features/stories/lang.ts';
import { useI18n } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import ui from '../components/ui.module.css';
import { readingPlace } from './readingPlace.ts';
import styles from './BookmarksPage.module.css';

const HERE = '/bookmarks/';

/** /bookmarks/: the reader's saved stories with where they left off (login required). */
export default function BookmarksPage() {
  const { t } = useI18n();
  const session = useSession();
  useDocumentTitle(t('bookmarks.title'));

  return (
    <div className={styles.page}>
      <div className={styles.head}>
        <h1 className={styles.heading}>{t('bookmarks.title')}</h1>
        <p className={styles.lead}>{t('bookmarks.lead')}</p>
      </div>
      {session.status === 'unknown' ? (
        <SkeletonLines lines={4} label={t('common.loading')} />
      ) : session.status === 'visitor' ? (
        <LoginWall />
      ) : (
        <BookmarkList />
      )}
    </div>
  );
}

/** Visitors: log in or join, then come back here. */
export function LoginWall() {
  const { t } = useI18n();
  const redirect = `?redirect=${encodeURIComponent(HERE)}`;
  return (
    <InfoNotice>
      <p>{t('bookmarks.needLogin')}</p>
      <div className={styles.actions}>
        <Link className={ui.button} to={`/login${redirect}`}>
          {t('nav.login')}
        </Link>
        <Link className={ui.buttonSecondary} to={`/signup${redirect}`}>
          {t('nav.join')}
        </Link>
      </div>
    </InfoNotice>
  );
}

function BookmarkList() {
  const { t } = useI18n();
  const query = useBookmarks(true);
  if (query.isPending) return <SkeletonLines lines={5} label={t('common.loading')} />;
  if (query.isError)
    return <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />;
  const list = query.data.list;
  if (list.length === 0)
    return (
      <InfoNotice>
        <p>{t('bookmarks.empty')}</p>
        <Link className={ui.button} to="/">
          {t('bookmarks.browse')}
        </Link>
      </InfoNotice>
    );
  return (
    <ul className={styles.list}>
      {list.map((item) => (
        <BookmarkRow key={item.story.storyId} item={item} />
      ))}
    </ul>
  );
}

function BookmarkRow({ item }: { item: BookmarkItem }) {
  const { t } = useI18n();
  const id = useId();
  const { story, progress } = item;
  const lang = storyLang(story.language);
  const place = readingPlace(story.storyId, progress, story.numberOfparts);
  return (
    <li className={styles.item}>
      <Cover storyId={story.storyId} alt="" width={72} className={styles.cover} />
      <div className={styles.body}>
        <h2 className={styles.title} lang={lang} id={`${id}-title`}>
          <Link to={detailsPath(story.storyId)} className={styles.titleLink}>
            {story.title}
          </Link>
        </h2>
        <p className={styles.author} lang={textLang(story.author.name)}>
          {story.author.name}
        </p>
        <p className={styles.where}>
          {progress
            ? t('bookmarks.at', { n: place.part, total: place.total })
            : t('bookmarks.notStarted')}
        </p>
      </div>
      <Link
        className={`${ui.button} ${styles.continue}`}
        to={place.href}
        aria-label={
          progress ? t('bookmarks.continueLabel', { title: story.title, n: place.part }) : undefined
        }
        aria-describedby={progress ? undefined : `${id}-title`}
      >
        {t(progress ? 'bookmarks.continue' : 'bookmarks.start')}
      </Link>
    </li>
  );
}
