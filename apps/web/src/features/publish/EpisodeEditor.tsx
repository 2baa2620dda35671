import { memo, useCallback, useDeferredValue, useEffect, useId, useRef, useState } from 'react';
import { AUTHORING, countWords, episodePlainText, type OwnStory } from '@kathamala/domain';
import { useOwnEpisode, type OwnEpisodeFull } from '../../api/authoring.ts';
import { isApiError } from '../../api/client.ts';
import { ErrorNotice } from '../../components/Notice.tsx';
import { SkeletonLines } from '../../components/Skeleton.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { storyLang } from '../stories/lang.ts';
import { EditorHead, RestoredNote, type EditorNotice } from './EditorBits.tsx';
import { EpisodeActions } from './EpisodeActions.tsx';
import { EpisodePreview } from './EpisodePreview.tsx';
import { RichTextEditor } from './RichTextEditor.tsx';
import { useEpisodeActions } from './useEpisodeActions.ts';
import { useEpisodeAutosave } from './useEpisodeAutosave.ts';
import ui from '../../components/ui.module.css';
import styles from './publish.module.css';

/**
 * Opens an episode for writing (`episodeParam` is an id or 'new'). When a new episode is first
 * saved the address changes to its id, and the same editor stays open (the cursor stays put).
 */
export function EpisodeEditor(props: {
  story: OwnStory;
  episodeParam: string;
  /** A new episode got its id: put it in the address without reopening the editor. */
  onCreated: (episodeId: number) => void;
  /** The episode is gone: back to the story. */
  onClosed: (notice?: EditorNotice) => void;
}) {
  const { t } = useI18n();
  const { episodeParam, onCreated } = props;
  const [createdId, setCreatedId] = useState<number | null>(null);
  const [opened, setOpened] = useState({ param: episodeParam, n: 0 });
  const [prevParam, setPrevParam] = useState(episodeParam);
  if (episodeParam !== prevParam) {
    setPrevParam(episodeParam);
    // The address catching up with an episode this editor just created is not a new opening.
    if (episodeParam === String(createdId)) setCreatedId(null);
    else setOpened((o) => ({ param: episodeParam, n: o.n + 1 }));
  }
  const episodeId = opened.param === 'new' ? null : Number(opened.param);
  const server = useOwnEpisode(episodeId);

  const created = useCallback(
    (id: number) => {
      setCreatedId(id);
      onCreated(id);
    },
    [onCreated],
  );
  const reopen = useCallback(() => setOpened((o) => ({ ...o, n: o.n + 1 })), []);

  if (episodeId !== null && server.isPending) {
    return <SkeletonLines lines={10} label={t('common.loading')} />;
  }
  if (episodeId !== null && server.isError) {
    const missing = isApiError(server.error) && [403, 404].includes(server.error.status);
    return (
      <ErrorNotice error={server.error} onRetry={missing ? undefined : () => void server.refetch()}>
        {missing ? t('publish.episodeMissing') : undefined}
      </ErrorNotice>
    );
  }
  return (
    <EditorSession
      key={`${opened.param}:${opened.n}`}
      story={props.story}
      initial={server.data?.episode ?? null}
      onCreated={created}
      onClosed={props.onClosed}
      onReopen={reopen}
    />
  );
}

/**
 * One opening of an episode: the title, the text (or its preview) and the actions. Saving is
 * useEpisodeAutosave's; this keeps what the fields show.
 */
function EditorSession(props: {
  story: OwnStory;
  initial: OwnEpisodeFull | null;
  onCreated: (episodeId: number) => void;
  onClosed: (notice?: EditorNotice) => void;
  onReopen: () => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const { story, initial, onCreated, onReopen } = props;
  const lang = storyLang(story.language);
  const autosave = useEpisodeAutosave({ story, initial, onCreated });
  const actions = useEpisodeActions({ story, autosave, onClosed: props.onClosed });
  // Stable, so the memoised editor does not re-render on every keystroke in the title.
  const actionsRef = useRef(actions);
  useEffect(() => {
    actionsRef.current = actions;
  });
  const saveShortcut = useCallback(() => void actionsRef.current.saveNow(), []);
  const { start, server, edit } = autosave;

  const [title, setTitle] = useState(start.values.title);
  const [membersOnly, setMembersOnly] = useState(start.values.membersOnly);
  const [content, setContent] = useState(start.values.content);
  const [restoredNote, setRestoredNote] = useState(start.restored);
  const [preview, setPreview] = useState(false);

  const onContent = useCallback(
    (html: string) => {
      setContent(html);
      edit({ content: html });
    },
    [edit],
  );

  const discardRestored = () => {
    autosave.forget();
    onReopen();
  };

  return (
    <div className={styles.editor}>
      <EditorHead
        server={server}
        saveState={autosave.saveState}
        dirty={autosave.dirty}
        localOk={autosave.localOk}
      />

      {restoredNote && (
        <RestoredNote onKeep={() => setRestoredNote(false)} onDiscard={discardRestored} />
      )}

      <div className={ui.field}>
        <label className={ui.label} htmlFor={`${id}-title`}>
          {t('publish.episodeTitle')}
        </label>
        <input
          id={`${id}-title`}
          className={`${ui.input} ${styles.titleInput}`}
          lang={lang}
          value={title}
          maxLength={AUTHORING.titleMaxChars}
          onChange={(e) => {
            setTitle(e.target.value);
            edit({ title: e.target.value });
          }}
        />
      </div>

      <EditorBar preview={preview} onPreview={setPreview} content={content} />

      <MemoEditor
        initialHtml={start.values.content}
        lang={lang}
        label={t('publish.episodeText')}
        placeholder={t('publish.placeholder')}
        onChange={onContent}
        onSaveShortcut={saveShortcut}
        hidden={preview}
      />

      {preview && (
        <EpisodePreview
          story={story}
          title={title}
          content={content}
          partNumber={server.partNumber}
          lang={lang}
        />
      )}

      {!story.membersOnly && (
        <label className={styles.check}>
          <input
            type="checkbox"
            checked={membersOnly}
            onChange={(e) => {
              setMembersOnly(e.target.checked);
              edit({ membersOnly: e.target.checked });
            }}
          />
          {t('publish.episodeMembersOnly')}
        </label>
      )}

      <EpisodeActions storyId={story.storyId} server={server} actions={actions} />
    </div>
  );
}

const MemoEditor = memo(RichTextEditor);

/** Write / Preview switch and the word count (counted a moment behind the typing). */
function EditorBar(props: {
  preview: boolean;
  onPreview: (preview: boolean) => void;
  content: string;
}) {
  const { t } = useI18n();
  const words = countWords(episodePlainText(useDeferredValue(props.content)));
  return (
    <div className={styles.editorBar}>
      <div className={styles.viewSwitch} role="group" aria-label={t('publish.view')}>
        <button
          type="button"
          className={ui.chip}
          aria-pressed={!props.preview}
          onClick={() => props.onPreview(false)}
        >
          {t('publish.write')}
        </button>
        <button
          type="button"
          className={ui.chip}
          aria-pressed={props.preview}
          onClick={() => props.onPreview(true)}
        >
          {t('publish.preview')}
        </button>
      </div>
      <span className={styles.words} aria-live="off">
        {t('publish.words', { n: words })}
      </span>
    </div>
  );
}
