import { useCallback, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import {
  apiPaths,
  episodeFooter,
  isMissingPart,
  ResultCode,
  type StoryDetails,
} from '@kathamala/domain';
import { isApiError } from '../api/client.ts';
import { useAuthorStories, usePart, usePreview } from '../api/queries.ts';
import { Cover } from '../components/Cover.tsx';
import { HydrateLater } from '../components/HydrateLater.tsx';
import { useServerStatus } from '../config.tsx';
import { ErrorNotice, InfoNotice } from '../components/Notice.tsx';
import { SkeletonBlock, SkeletonLines } from '../components/Skeleton.tsx';
import { formatFullDate } from '../features/account/format.ts';
import { AudioButton } from '../features/audio/AudioButton.tsx';
import { useSession } from '../features/auth/useSession.ts';
import { BookmarkButton } from '../features/bookmarks/BookmarkButton.tsx';
import { ComfortButton } from '../features/comfort/ComfortButton.tsx';
import comfortStyles from '../features/comfort/comfort.module.css';
import { LazyComments } from '../features/comments/LazyComments.tsx';
import { RatingPanel } from '../features/rating/RatingPanel.tsx';
import { AlertPanel } from '../features/reader/AlertPanel.tsx';
import { EpisodePager } from '../features/reader/EpisodePager.tsx';
import { EpisodeText } from '../features/reader/EpisodeText.tsx';
import { guardLeftState } from '../features/reader/GuardNotice.tsx';
import { SeriesLinks } from '../features/reader/SeriesLinks.tsx';
import { SubscriptionWall } from '../features/reader/SubscriptionWall.tsx';
import { useReadingProgress } from '../features/reader/useReadingProgress.ts';
import { useResumePosition } from '../features/reader/useResumePosition.ts';
import { useRecordView } from '../features/reader/useRecordView.ts';
import { useScreenGuard } from '../features/reader/useScreenGuard.ts';
import { VisitorWall } from '../features/reader/VisitorWall.tsx';
import { CompactStoryList } from '../features/stories/CompactStoryList.tsx';
import { storyLang, textLang } from '../features/stories/lang.ts';
import { MembersBadge, StoryMeta } from '../features/stories/StoryMeta.tsx';
import { TrendingList } from '../features/stories/TrendingList.tsx';
import { useI18n } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import { NotFoundPage } from './NotFoundPage.tsx';
import styles from '../features/reader/reader.module.css';

const positiveInt = (raw: string | undefined): number | null =>
  raw && /^\d{1,9}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;

/** /details/{storyId}/ and /details/{storyId}/{partId}/: the part defaults to 1. */
export default function DetailsPage() {
  const params = useParams();
  const storyId = positiveInt(params.storyId);
  const partNumber = params.partId === undefined ? 1 : positiveInt(params.partId);
  if (!storyId || !partNumber) return <NotFoundPage />;
  return <StoryView key={storyId} storyId={storyId} partNumber={partNumber} />;
}

function StoryView({ storyId, partNumber }: { storyId: number; partNumber: number }) {
  const { t, lang: uiLang } = useI18n();
  const navigate = useNavigate();
  const session = useSession();
  const isReader = session.status === 'reader';
  // The server already found no such story: say so at once instead of asking again.
  const missing = useServerStatus() === 404;
  const preview = usePreview(storyId, !missing);
  // A story not out yet, or a part past its last, has no text to ask for (the preview says so).
  const noText =
    preview.data !== undefined &&
    (preview.data.story.releaseDate !== undefined ||
      isMissingPart(partNumber, preview.data.numberOfparts));
  const part = usePart(storyId, partNumber, isReader && !noText);

  // Anti-copy guard (SPEC.md 2): a shrunken window clears the text and leaves for the home page.
  const [guarded, setGuarded] = useState(false);
  const onShrunk = useCallback(() => {
    setGuarded(true);
    // Home says why the reader is there (GuardNotice), with the way back.
    navigate('/', { replace: true, state: guardLeftState(storyId, partNumber) });
  }, [navigate, storyId, partNumber]);
  useScreenGuard(true, onShrunk);

  // A reader with the episode's text on screen: views and reading progress count (SPEC.md 4).
  const textShown = isReader && !guarded && part.isSuccess && part.data.part.content !== undefined;
  useRecordView(storyId, partNumber, textShown);
  useResumePosition(textShown);
  useReadingProgress(storyId, partNumber, textShown);

  // The full details answer when there is one, the public preview otherwise (SPEC.md 4).
  const details: StoryDetails | undefined = part.data ?? preview.data;
  // No such part (0, or past the last one): no page, as the server answered (404, the same page).
  const missingPart = details !== undefined && isMissingPart(partNumber, details.numberOfparts);
  useDocumentTitle(
    missingPart
      ? t('notFound.title')
      : (details?.story.title ?? (preview.isError || missing ? t('notFound.title') : undefined)),
  );

  if (missingPart) return <NotFoundPage />;
  if (!details) {
    // A disabled query also counts as pending: only a reader's part can still be on its way.
    const waitingForPart = isReader && part.isPending;
    if (missing && !waitingForPart) return <InfoNotice>{t('details.notFound')}</InfoNotice>;
    if (preview.isError && !waitingForPart) {
      const notFound = isApiError(preview.error) && preview.error.status === 404;
      return notFound ? (
        <InfoNotice>{t('details.notFound')}</InfoNotice>
      ) : (
        <ErrorNotice error={preview.error} onRetry={() => void preview.refetch()} />
      );
    }
    return <StorySkeleton />;
  }

  const { story, author } = details;
  const lang = storyLang(story.language);
  const opening = partNumber === 1 ? details.part.opening : undefined;
  const subscriptionNeeded =
    (isApiError(part.error) && part.error.code === ResultCode.subscriptionRequired) ||
    (part.isSuccess &&
      part.data.part.content === undefined &&
      (story.membersOnly || part.data.part.membersOnly));

  let reading: ReactNode;
  if (guarded) reading = null;
  else if (story.releaseDate !== undefined)
    // Not out yet: its day and the server's sentence, for everyone; nothing to page through.
    reading = (
      <div className={`${styles.wall} ${styles.upcoming}`} role="status">
        <p className={styles.releaseDate}>
          <time dateTime={story.releaseDate}>
            {t('story.releases', { date: formatFullDate(story.releaseDate, uiLang) })}
          </time>
        </p>
        <p>{t('details.notOut')}</p>
      </div>
    );
  else if (session.status === 'unknown' || session.status === 'visitor') {
    // Server render and hydration: the opening of part 1 of a free story and the wall for
    // visitors (so search engines and share previews read it), a placeholder for readers (CSS
    // picks). Once a visitor is known the wall stays where it is (one class less).
    const known = session.status === 'visitor';
    reading = (
      <>
        <div className={known ? styles.visitorReading : `${styles.visitorReading} visitor-only`}>
          {opening && (
            <section className={styles.openingPart} aria-labelledby="opening-label">
              <p className={styles.episodeNumber} id="opening-label">
                {t('details.opening')}
              </p>
              {details.part.title && (
                <h2 className={styles.episodeTitle} lang={lang}>
                  {details.part.title}
                </h2>
              )}
              <EpisodeText content={opening} lang={lang} opening />
            </section>
          )}
          <VisitorWall storyId={storyId} membersOnly={story.membersOnly} />
        </div>
        {!known && (
          <div className="reader-only">
            <SkeletonLines lines={8} />
          </div>
        )}
      </>
    );
  } else if (part.isPending) reading = <SkeletonLines lines={8} label={t('details.reading')} />;
  else if (subscriptionNeeded)
    reading = <SubscriptionWall storyId={storyId} author={author} episode={!story.membersOnly} />;
  else if (part.isSuccess && part.data.part.content !== undefined) {
    const footer = episodeFooter(story, part.data.part.partNumber === details.numberOfparts);
    reading = (
      <>
        <header className={styles.episodeHeader} id="episode">
          <div className={comfortStyles.bar}>
            <p className={styles.episodeNumber}>
              {t('details.episodeOf', {
                n: part.data.part.partNumber,
                total: details.numberOfparts,
              })}
            </p>
            <ComfortButton />
          </div>
          {part.data.part.title && (
            <h2 className={styles.episodeTitle} lang={lang}>
              {part.data.part.title}
            </h2>
          )}
        </header>
        <EpisodeText content={part.data.part.content} lang={lang} />
        {footer && (
          <p className={styles.footer} lang={lang}>
            {footer}
          </p>
        )}
        <EpisodePager storyId={storyId} current={partNumber} total={details.numberOfparts} />
        <AlertPanel
          storyId={storyId}
          alertEnabled={part.data.alertEnabled}
          keyword={author.keyword}
        />
        {/* Rating and responses: for readers who may read this episode (SPEC.md 6). */}
        <RatingPanel
          storyId={storyId}
          kind={story.kind}
          rating={story.rating}
          ratingCount={story.ratingCount}
          userRating={part.data.userRating}
        />
        <LazyComments
          storyId={storyId}
          episode={part.data.part.partNumber}
          episodeId={part.data.part.episodeId}
        />
      </>
    );
  } else {
    reading = (
      <>
        <ErrorNotice error={part.error} onRetry={() => void part.refetch()}>
          {t('details.loadFailed')}
        </ErrorNotice>
        <EpisodePager storyId={storyId} current={partNumber} total={details.numberOfparts} />
      </>
    );
  }

  return (
    <div className={styles.layout}>
      <HydrateLater>
        <article className={styles.story}>
          <header className={styles.storyHeader}>
            <Cover
              storyId={storyId}
              alt={t('story.cover', { title: story.title })}
              width={144}
              // As reader.module.css shows it: 6.5rem on a phone, 8rem from 576 px, 10rem from 768.
              sizes="(min-width: 768px) 160px, (min-width: 576px) 128px, 104px"
              eager
              className={styles.storyCover}
            />
            <div className={styles.storyHeading}>
              <h1 className={styles.storyTitle} lang={lang}>
                {story.title}
              </h1>
              <p className={styles.storyAuthor}>
                <Link to={apiPaths.authorPage(author.authorId)} lang={textLang(author.name)}>
                  {t('story.by', { name: author.name })}
                </Link>
              </p>
              {story.releaseDate === undefined && (
                <StoryMeta
                  reads={story.reads}
                  rating={story.rating}
                  parts={details.numberOfparts}
                  ongoing={story.ongoing}
                />
              )}
              {story.membersOnly && <MembersBadge />}
              <AudioButton
                storyId={storyId}
                storyTitle={story.title}
                author={author}
                lang={lang}
                tracks={details.audioBooks}
                partNumber={partNumber}
                loggedIn={isReader}
              />
              {isReader && part.isSuccess && (
                <BookmarkButton storyId={storyId} bookmarked={part.data.bookmarked} />
              )}
            </div>
            <p className={styles.storyDescription} lang={lang}>
              {story.description}
            </p>
          </header>
          <SeriesLinks series={details.series} storyId={storyId} />
          <HydrateLater>
            <div className={styles.reading}>{reading}</div>
          </HydrateLater>
        </article>
      </HydrateLater>
      {/* Below the story on a phone: hydrated after it, each list in a task of its own. */}
      <aside className={styles.aside}>
        <HydrateLater>
          <TrendingList excludeStoryId={storyId} />
        </HydrateLater>
        <HydrateLater>
          <MoreByAuthor authorId={author.authorId} name={author.name} storyId={storyId} />
        </HydrateLater>
      </aside>
    </div>
  );
}

/** Other stories of the same author; silent (empty) when the list fails (SPEC.md 8). */
function MoreByAuthor(props: { authorId: number; name: string; storyId: number }) {
  const { t } = useI18n();
  const { data } = useAuthorStories(props.authorId);
  const stories = (data?.stories ?? []).filter((s) => s.storyId !== props.storyId);
  return (
    <CompactStoryList
      id="more-by-author"
      title={t('details.moreByAuthor', { name: props.name })}
      titleLang={textLang(props.name)}
      titleHref={apiPaths.authorPage(props.authorId)}
      stories={stories}
    />
  );
}

function StorySkeleton() {
  const { t } = useI18n();
  return (
    <div className={styles.layout} role="status" aria-busy="true">
      <span className="visually-hidden">{t('common.loading')}</span>
      <div className={styles.story}>
        <div className={styles.storyHeader}>
          <SkeletonBlock className={styles.storyCover} />
          <div className={styles.storyHeading}>
            <SkeletonLines lines={3} />
          </div>
        </div>
        <SkeletonLines lines={8} />
      </div>
    </div>
  );
}
