import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import type { OwnEpisode, OwnStory } from '@kathamala/domain';
import { useOwnEpisodes } from '../../api/authoring.ts';
import { ErrorNotice } from '../../components/Notice.tsx';
import { SkeletonLines } from '../../components/Skeleton.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { storyLang } from '../stories/lang.ts';
import { readDraft, type LocalDraft } from './drafts.ts';
import { StatusBadge } from './EditorBits.tsx';
import { formatWhen } from './when.ts';
import ui from '../../components/ui.module.css';
import styles from './publish.module.css';

// Importing a document (and mammoth for .docx) loads only when an author opens it.
const LegacyImport = lazy(() => import('./LegacyImport.tsx'));

// Published first in part order, then scheduled by time, then drafts newest first.
const ORDER = { published: 0, scheduled: 1, draft: 2 } as const;
const byPlace = (a: OwnEpisode, b: OwnEpisode): number =>
  ORDER[a.status] - ORDER[b.status] ||
  (a.status === 'published'
    ? (a.partNumber ?? 0) - (b.partNumber ?? 0)
    : a.status === 'scheduled'
      ? Date.parse(a.publishAt ?? '') - Date.parse(b.publishAt ?? '')
      : Date.parse(b.updatedAt) - Date.parse(a.updatedAt));

/** Every episode of a story, in every status, each opening the editor. */
export function EpisodeList(props: { story: OwnStory }) {
  const { t } = useI18n();
  const { story } = props;
  const episodes = useOwnEpisodes(story.storyId);
  // A new episode typed here but never saved to the server (kept in this browser).
  // Read once: the list is keyed by story and only shown in the browser.
  const [unsavedNew] = useState<LocalDraft | null>(() => readDraft(story.storyId, 'new'));
  const lang = storyLang(story.language);
  const [importing, setImporting] = useState(false);

  return (
    <section className={styles.episodes} aria-labelledby="episodes-heading">
      <div className={styles.sectionHead}>
        <h2 id="episodes-heading" className={styles.panelTitle}>
          {t('publish.episodes')}
        </h2>
        <span className={styles.sectionButtons}>
          <button
            type="button"
            className={ui.buttonSecondary}
            aria-expanded={importing}
            onClick={() => setImporting(!importing)}
          >
            {t('legacy.open')}
          </button>
          <Link className={ui.button} to={`?story=${story.storyId}&episode=new`}>
            {t('publish.newEpisode')}
          </Link>
        </span>
      </div>
      {importing && (
        <Suspense fallback={<SkeletonLines lines={3} label={t('common.loading')} />}>
          <LegacyImport story={story} onClose={() => setImporting(false)} />
        </Suspense>
      )}
      {episodes.isPending ? (
        <SkeletonLines lines={4} label={t('common.loading')} />
      ) : episodes.isError ? (
        <ErrorNotice error={episodes.error} onRetry={() => void episodes.refetch()} />
      ) : (
        <ol className={styles.episodeList}>
          {unsavedNew && (
            <li>
              <Link className={styles.episodeRow} to={`?story=${story.storyId}&episode=new`}>
                <span className={styles.partNo} aria-hidden="true">
                  •
                </span>
                <span className={styles.episodeMain}>
                  <span className={styles.itemTitle} lang={lang}>
                    {unsavedNew.title || t('publish.untitled')}
                  </span>
                  <span className={styles.itemMeta}>{t('publish.unsavedNew')}</span>
                </span>
              </Link>
            </li>
          )}
          {[...episodes.data.episodes].sort(byPlace).map((e) => (
            <li key={e.episodeId}>
              <Link
                className={styles.episodeRow}
                to={`?story=${story.storyId}&episode=${e.episodeId}`}
              >
                <span className={styles.partNo}>
                  {e.partNumber ? (
                    <>
                      <span className="visually-hidden">
                        {t('publish.episodeNumber', { n: e.partNumber })}
                      </span>
                      <span aria-hidden="true">{e.partNumber}</span>
                    </>
                  ) : (
                    <span aria-hidden="true">–</span>
                  )}
                </span>
                <span className={styles.episodeMain}>
                  <span className={styles.itemTitle} lang={lang}>
                    {e.title || t('publish.untitled')}
                  </span>
                  <span className={styles.itemMeta}>
                    <StatusBadge status={e.status} />
                    {e.status === 'scheduled' && e.publishAt && (
                      <span>{t('publish.goesOut', { when: formatWhen(e.publishAt) })}</span>
                    )}
                    <span>{t('publish.words', { n: e.words })}</span>
                    {e.membersOnly && <span>{t('story.membersOnly')}</span>}
                  </span>
                </span>
              </Link>
            </li>
          ))}
          {episodes.data.episodes.length === 0 && !unsavedNew && (
            <li className={styles.empty}>{t('publish.noEpisodes')}</li>
          )}
        </ol>
      )}
    </section>
  );
}
