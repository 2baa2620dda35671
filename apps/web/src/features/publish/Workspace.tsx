import { useCallback, useEffect, useState, type MouseEvent } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { detailsPath, type OwnStory } from '@kathamala/domain';
import { refreshAuthoring, useOwnStories } from '../../api/authoring.ts';
import { ErrorNotice, InfoNotice } from '../../components/Notice.tsx';
import { SkeletonLines } from '../../components/Skeleton.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { storyLang } from '../stories/lang.ts';
import { AudioTracks } from './AudioTracks.tsx';
import { EnterContest } from '../campaigns/EnterContest.tsx';
import { CoverPanel } from './CoverPanel.tsx';
import { NoticeLine, type EditorNotice } from './EditorBits.tsx';
import { EpisodeEditor } from './EpisodeEditor.tsx';
import { EpisodeList } from './EpisodeList.tsx';
import { StoryForm } from './StoryForm.tsx';
import { StoryList, StoryStatusBadge, countsLine } from './StoryList.tsx';
import { formatWhen } from './when.ts';
import ui from '../../components/ui.module.css';
import styles from './publish.module.css';

type View = 'home' | 'new' | 'story' | 'edit' | 'episode';

// The layout blocks the context menu (an anti-copy measure for readers); an author needs it
// in their own text for spelling suggestions and paste.
const allowContextMenu = (e: MouseEvent) => e.stopPropagation();

/**
 * The author's workspace. Where they are lives in the address (?story=12&episode=34,
 * episode=new, edit=1, story=new), so a reload comes back to the same place.
 */
export function Workspace() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const stories = useOwnStories();

  const storyParam = params.get('story');
  const episodeParam = params.get('episode');
  const storyId = storyParam && /^\d{1,9}$/.test(storyParam) ? Number(storyParam) : null;
  const view: View =
    storyParam === 'new'
      ? 'new'
      : storyId === null
        ? 'home'
        : episodeParam && (episodeParam === 'new' || /^\d{1,9}$/.test(episodeParam))
          ? 'episode'
          : params.get('edit') === '1'
            ? 'edit'
            : 'story';
  // A message from the step before (story created, episode deleted) rides in the history
  // state. It is taken out of there at once, so a reload does not say it again, and shown
  // until the author moves on.
  const incoming = (location.state as { notice?: EditorNotice } | null)?.notice;
  const [flash, setFlash] = useState<{ search: string; notice: EditorNotice } | null>(null);
  if (incoming && flash?.notice !== incoming)
    setFlash({ search: location.search, notice: incoming });
  else if (!incoming && flash && flash.search !== location.search) setFlash(null);
  const notice = flash?.search === location.search ? flash.notice : undefined;
  useEffect(() => {
    if (incoming) navigate({ search: location.search }, { replace: true, state: null });
  }, [incoming, location.search, navigate]);

  const go = useCallback(
    (search: string, opts: { replace?: boolean; notice?: EditorNotice } = {}) =>
      navigate(
        { search },
        { replace: opts.replace, state: opts.notice ? { notice: opts.notice } : null },
      ),
    [navigate],
  );
  const onCreated = useCallback(
    (episodeId: number) => go(`?story=${storyId}&episode=${episodeId}`, { replace: true }),
    [go, storyId],
  );
  const onClosed = useCallback(
    (closing?: EditorNotice) => go(`?story=${storyId}`, { notice: closing }),
    [go, storyId],
  );

  const heading = <h1 className={styles.heading}>{t('publish.title')}</h1>;
  if (stories.isPending) {
    return (
      <div className={styles.workspace}>
        {heading}
        <SkeletonLines lines={6} label={t('common.loading')} />
      </div>
    );
  }
  if (stories.isError) {
    return (
      <div className={styles.workspace}>
        {heading}
        <ErrorNotice error={stories.error} onRetry={() => void stories.refetch()} />
      </div>
    );
  }

  const list = stories.data.stories;
  const story = storyId === null ? null : (list.find((s) => s.storyId === storyId) ?? null);
  const backToList = (
    <Link className={styles.back} to="?">
      <span aria-hidden="true">‹</span>
      {` ${t('publish.yourStories')}`}
    </Link>
  );

  let main;
  if (storyId !== null && !story) {
    main = (
      <InfoNotice>
        <p>{t('publish.storyMissing')}</p>
        {backToList}
      </InfoNotice>
    );
  } else if (view === 'new' || view === 'edit') {
    main = (
      <>
        {view === 'edit' && story && (
          <section className={styles.panel} aria-label={t('publish.coverLabel')}>
            <CoverPanel storyId={story.storyId} title={story.title} />
          </section>
        )}
        <StoryForm
          key={story?.storyId ?? 'new'}
          story={view === 'edit' ? story : null}
          stories={list}
          onCancel={() => go(story ? `?story=${story.storyId}` : '?')}
          onSaved={async (id, created) => {
            await refreshAuthoring(queryClient, id);
            go(`?story=${id}`, {
              notice: {
                kind: 'success',
                text: created ? t('publish.storyCreated') : t('publish.storySaved'),
              },
            });
          }}
        />
      </>
    );
  } else if (view === 'episode' && story && episodeParam) {
    main = (
      <EpisodeEditor
        key={story.storyId}
        story={story}
        episodeParam={episodeParam}
        onCreated={onCreated}
        onClosed={onClosed}
      />
    );
  } else if (view === 'story' && story) {
    main = <StoryPanel story={story} notice={notice} />;
  } else {
    main = (
      // On a phone the list above already says it all, unless there is nothing in it yet.
      <div className={`${styles.welcome} ${list.length ? styles.wideOnly : ''}`}>
        <p>{list.length ? t('publish.chooseStory') : t('publish.firstStory')}</p>
        <Link className={ui.button} to="?story=new">
          {t('publish.newStory')}
        </Link>
      </div>
    );
  }

  const selected = view !== 'home';
  return (
    <div
      className={styles.workspace}
      data-view={view}
      data-selected={selected || undefined}
      onContextMenu={allowContextMenu}
    >
      <div className={styles.workspaceHead}>
        {heading}
        {story && view === 'episode' && (
          <nav className={styles.crumbs} aria-label={t('publish.whereAmI')}>
            <Link to="?">{t('publish.yourStories')}</Link>
            <span aria-hidden="true">›</span>
            <Link to={`?story=${story.storyId}`} lang={storyLang(story.language)}>
              {story.title}
            </Link>
          </nav>
        )}
      </div>
      <div className={styles.columns}>
        {view !== 'episode' && (
          <aside className={styles.sidebar} aria-label={t('publish.yourStories')}>
            <div className={styles.sectionHead}>
              <h2 className={styles.panelTitle}>{t('publish.yourStories')}</h2>
              <Link className={ui.buttonSecondary} to="?story=new">
                {t('publish.newStory')}
              </Link>
            </div>
            <StoryList stories={list} selected={storyId} />
          </aside>
        )}
        <div className={styles.main}>
          {selected && view !== 'episode' && <div className={styles.backRow}>{backToList}</div>}
          {main}
        </div>
      </div>
    </div>
  );
}

/** One story: where it stands, its cover, and its episodes. */
function StoryPanel({ story, notice }: { story: OwnStory; notice?: EditorNotice }) {
  const { t } = useI18n();
  const lang = storyLang(story.language);
  const statusHint =
    story.status === 'public'
      ? t('publish.storyPublicHint')
      : story.status === 'upcoming'
        ? t('publish.storyUpcomingHint', { when: formatWhen(story.releaseDate) })
        : t('publish.storyDraftHint');
  return (
    <div className={styles.storyPanel}>
      {notice && <NoticeLine notice={notice} />}
      <section className={styles.panel}>
        <div className={styles.storyFacts}>
          <h2 className={styles.storyTitle} lang={lang}>
            {story.title}
          </h2>
          <p className={styles.itemMeta}>
            <StoryStatusBadge status={story.status} />
            <span>{countsLine(story.counts, t)}</span>
          </p>
          <p className={ui.hint}>{statusHint}</p>
          <div className={styles.actions}>
            <Link className={ui.buttonSecondary} to={`?story=${story.storyId}&edit=1`}>
              {t('publish.editDetails')}
            </Link>
            {story.status === 'public' && (
              <Link className={ui.buttonQuiet} to={detailsPath(story.storyId)}>
                {t('publish.viewOnSite')}
              </Link>
            )}
          </div>
        </div>
        <CoverPanel storyId={story.storyId} title={story.title} />
      </section>
      <EpisodeList key={story.storyId} story={story} />
      <AudioTracks key={`audio-${story.storyId}`} story={story} />
      <EnterContest key={`contest-${story.storyId}`} storyId={story.storyId} />
    </div>
  );
}
