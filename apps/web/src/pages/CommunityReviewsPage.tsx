import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import {
  detailsPath,
  parsePage,
  reviewPaths,
  type Decision,
  type ReviewItem,
} from '@kathamala/domain';
import { isApiError } from '../api/client.ts';
import ui from '../components/ui.module.css';
import { ErrorNotice, InfoNotice } from '../components/Notice.tsx';
import { SkeletonLines } from '../components/Skeleton.tsx';
import { useSession } from '../features/auth/useSession.ts';
import { canReview, useCommunityMe } from '../features/community/api.ts';
import { communityPages } from '../features/community/paths.ts';
import { ReasonDialog } from '../components/ReasonDialog.tsx';
import {
  addWord,
  decide,
  removeWord,
  useReviewQueue,
  useReviewWords,
} from '../features/community/reviewApi.ts';
import { LoginWall } from './BookmarksPage.tsx';
import { textLang } from '../features/stories/lang.ts';
import { SinglishToggle } from '../features/singlish/SinglishToggle.tsx';
import { useSinglishTyping } from '../features/singlish/useSinglishTyping.ts';
import { formatDayMonth } from '../i18n/dates.ts';
import { useI18n, type MessageKey } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import styles from '../features/community/community.module.css';
import { Feedback, PageLinks } from '../features/community/Feedback.tsx';

const KIND_LABEL: Record<ReviewItem['target']['kind'], MessageKey> = {
  post: 'reviews.targetPost',
  profile: 'reviews.targetProfile',
  comment: 'reviews.targetComment',
  post_comment: 'reviews.targetPostComment',
};

/**
 * /community/reviews: the editors' one queue, oldest first, each item with its target, its
 * reports and its history, and Approve, Reject (with a reason the writer reads) and Ignore;
 * below it the kept word list. Readers who open it get a polite "editors only" page.
 */
export default function CommunityReviewsPage() {
  const { t } = useI18n();
  const session = useSession();
  const me = useCommunityMe(session.status === 'reader');
  useDocumentTitle(t('reviews.title'));

  let body;
  if (session.status === 'unknown' || (session.status === 'reader' && me.isPending))
    body = <SkeletonLines lines={4} label={t('common.loading')} />;
  else if (session.status === 'visitor') body = <LoginWall />;
  else if (!canReview(me.data?.role)) body = <Forbidden />;
  else body = <Queue />;

  return (
    <div className={styles.wide}>
      <header className={styles.pageHead}>
        <h1 className={styles.heading}>{t('reviews.title')}</h1>
        <p className={styles.lead}>{t('reviews.lead')}</p>
      </header>
      {body}
    </div>
  );
}

/** What a reader sees here (and what the server's 403 means). */
export function Forbidden({ text }: { text?: string }) {
  const { t } = useI18n();
  return (
    <InfoNotice>
      <h2 className={styles.sharedTitle}>{t('reviews.forbiddenTitle')}</h2>
      <p>{text ?? t('reviews.forbidden')}</p>
      <p>
        <Link to={communityPages.feed()}>{t('community.title')}</Link>
      </p>
    </InfoNotice>
  );
}

function Queue() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const page = parsePage(params.get('page'));
  const query = useReviewQueue(page, true);
  if (isApiError(query.error) && query.error.status === 403) return <Forbidden />;
  return (
    <>
      {!query.data ? (
        query.isError ? (
          <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
        ) : (
          <SkeletonLines lines={6} label={t('common.loading')} />
        )
      ) : query.data.list.length === 0 ? (
        <InfoNotice>
          <p>{t('reviews.empty')}</p>
        </InfoNotice>
      ) : (
        <ol className={styles.queue}>
          {query.data.list.map((item) => (
            <QueueItem key={item.caseId} item={item} />
          ))}
        </ol>
      )}
      <PageLinks page={page} hasNext={query.data?.hasNext ?? false} />
      <WordList />
    </>
  );
}

const targetHref = (target: ReviewItem['target']): string | null =>
  target.kind === 'post'
    ? communityPages.post(target.id)
    : target.kind === 'profile'
      ? communityPages.profile(target.id)
      : target.kind === 'comment' && target.storyId
        ? detailsPath(target.storyId, target.partNumber ?? undefined)
        : target.postId
          ? communityPages.post(target.postId)
          : null;

function QueueItem({ item }: { item: ReviewItem }) {
  const { t, lang } = useI18n();
  const [rejecting, setRejecting] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [decided, setDecided] = useState<Decision | null>(null);
  const { target } = item;
  const href = targetHref(target);
  const headingId = `case-${item.caseId}`;

  const send = (decision: Decision, reason?: string) => {
    setBusy(true);
    setError('');
    return decide(target, decision, reason)
      .then(
        // The item stays, saying what was decided, until the queue is next opened.
        () => setDecided(decision),
        (e: unknown) => {
          // A race lost to another editor (409) says so in the server's own sentence.
          setError(isApiError(e) && e.message ? e.message : t('common.error'));
          throw e;
        },
      )
      .finally(() => setBusy(false));
  };

  return (
    <li className={styles.item} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.itemHead}>
        <strong>{t(KIND_LABEL[target.kind])}</strong>
        <Link
          to={communityPages.profile(target.author.userId)}
          lang={textLang(target.author.username)}
        >
          {target.author.username}
        </Link>
        <span>{t('reviews.joined', { date: formatDayMonth(target.author.joinedAt, lang) })}</span>
        <time dateTime={item.openedAt}>{formatDayMonth(item.openedAt, lang)}</time>
        {href && <Link to={href}>{t('reviews.openTarget')}</Link>}
      </h2>
      {target.preview && (
        <p className={styles.target} lang={textLang(target.preview)}>
          {target.preview}
        </p>
      )}
      {item.heldReason && (
        <p className={styles.pending}>{t('reviews.held', { why: item.heldReason })}</p>
      )}
      {item.hidden && <p className={styles.pending}>{t('reviews.hidden')}</p>}
      {item.matchedWords.length > 0 && (
        <p className={styles.muted}>
          {t('reviews.matched', { words: item.matchedWords.join(', ') })}
        </p>
      )}
      {item.flags.length > 0 && (
        <>
          <p className={styles.sharedLabel}>{t('reviews.flags', { n: item.flags.length })}</p>
          <ul className={styles.flags}>
            {item.flags.map((f, i) => (
              <li key={i}>{t('reviews.flagBy', { name: f.by.username, reason: f.reason })}</li>
            ))}
          </ul>
        </>
      )}
      {item.history.length > 0 && (
        <details>
          <summary>{t('reviews.history')}</summary>
          <ol className={styles.history}>
            {item.history.map((h, i) => (
              <li key={i}>
                <time dateTime={h.at}>{formatDayMonth(h.at, lang)}</time>
                {` · ${t(`reviews.action.${h.action}`)}`}
                {h.by && ` · ${t('reviews.by', { name: h.by.username })}`}
                {h.note && ` · ${h.note}`}
              </li>
            ))}
          </ol>
        </details>
      )}
      {decided ? (
        <p className={styles.note} role="status">
          {t('reviews.decided', { decision: t(decisionKey[decided]) })}
        </p>
      ) : (
        <div className={styles.decide}>
          <button
            type="button"
            className={ui.button}
            disabled={busy}
            onClick={() => void send('approve').catch(() => {})}
          >
            {t('reviews.approve')}
          </button>
          <button
            type="button"
            className={ui.buttonSecondary}
            disabled={busy}
            onClick={() => setRejecting(true)}
          >
            {t('reviews.reject')}
          </button>
          <button
            type="button"
            className={styles.quiet}
            disabled={busy}
            onClick={() => void send('ignore').catch(() => {})}
          >
            {t('reviews.ignore')}
          </button>
        </div>
      )}
      <Feedback error={error} />
      {rejecting && (
        <ReasonDialog
          title={t('reviews.reject')}
          label={t('reviews.rejectReason')}
          submitLabel={t('reviews.rejectSend')}
          onClose={() => setRejecting(false)}
          send={(reason) => send('reject', reason)}
        />
      )}
    </li>
  );
}

const decisionKey: Record<Decision, MessageKey> = {
  approve: 'reviews.approve',
  reject: 'reviews.reject',
  ignore: 'reviews.ignore',
};

/** The kept words: posts and comments with one of them wait for review. */
function WordList() {
  const { t } = useI18n();
  const client = useQueryClient();
  const query = useReviewWords(true);
  const [word, setWord] = useState('');
  // Editors type Sinhala words in Singlish as readers do in comments and search.
  const singlish = useSinglishTyping<HTMLInputElement>();
  const [error, setError] = useState('');
  const refresh = () => client.invalidateQueries({ queryKey: [reviewPaths.words()] });
  const failed = (e: unknown) =>
    setError(isApiError(e) && e.message ? e.message : t('common.error'));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!word.trim()) return;
    setError('');
    addWord(word.trim()).then(() => {
      setWord('');
      void refresh();
    }, failed);
  };

  return (
    <section className={styles.composer} aria-labelledby="review-words">
      <h2 id="review-words" className={styles.sharedTitle}>
        {t('reviews.words')}
      </h2>
      <p className={styles.muted}>{t('reviews.wordsLead')}</p>
      {query.data && query.data.list.length === 0 && <p>{t('reviews.wordsEmpty')}</p>}
      {query.data && query.data.list.length > 0 && (
        <ul className={styles.words}>
          {query.data.list.map((w) => (
            <li key={w.id} className={styles.word} lang={textLang(w.word)}>
              {w.word}
              <button
                type="button"
                className={styles.quiet}
                aria-label={t('reviews.wordRemove', { word: w.word })}
                onClick={() => removeWord(w.id).then(refresh, failed)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form method="post" className={styles.wordForm} onSubmit={submit}>
        <label className={ui.field}>
          <span className={ui.label}>{t('reviews.wordLabel')}</span>
          <input
            ref={singlish.ref}
            className={ui.input}
            value={word}
            onChange={(e) => setWord(e.target.value)}
          />
        </label>
        <SinglishToggle variant="compact" undoable={singlish.undoable} onUndo={singlish.undo} />
        <button type="submit" className={ui.button} disabled={!word.trim()}>
          {t('reviews.wordAddSend')}
        </button>
      </form>
      <Feedback error={error} />
    </section>
  );
}
