import {
  memo,
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  AUTHORING,
  countWords,
  detailsPath,
  episodeFooter,
  episodePlainText,
  type EpisodeStatus,
  type OwnEpisode,
  type OwnStory,
} from '@kathamala/domain';
import {
  deleteEpisode,
  refreshAuthoring,
  saveEpisode,
  saveEpisodeOnLeave,
  useOwnEpisode,
  type OwnEpisodeFull,
  type SavedEpisode,
} from '../../api/authoring.ts';
import { apiRequest, isApiError } from '../../api/client.ts';
import { ErrorNotice } from '../../components/Notice.tsx';
import { SkeletonLines } from '../../components/Skeleton.tsx';
import { useI18n, type Translate } from '../../i18n/index.tsx';
import { EpisodeText } from '../reader/EpisodeText.tsx';
import { storyLang } from '../stories/lang.ts';
import {
  adoptNewDraft,
  readDraft,
  removeDraft,
  shouldRestore,
  writeDraft,
  type EpisodeKey,
  type LocalDraft,
} from './drafts.ts';
import { RichTextEditor } from './RichTextEditor.tsx';
import { formatClock, formatWhen, fromLocalInput, nextHourInput, toLocalInput } from './when.ts';
import ui from '../../components/ui.module.css';
import reader from '../reader/reader.module.css';
import styles from './publish.module.css';

/** Autosave: this long after the last keystroke, or at the latest this long after the first. */
const AUTOSAVE_QUIET_MS = 2_000;
const AUTOSAVE_MAX_WAIT_MS = 10_000;
const RETRY_OFFLINE_MS = 5_000;
const TICK_MS = 1_000;
/** A new episode whose first save got no answer: a draft of the same title saved since is it. */
const CREATE_MATCH_SLACK_MS = 60_000;

/** A new episode's title until the author gives one, in the story's language (it is story text). */
const DEFAULT_TITLE = {
  si: (n: number) => `කොටස ${n}`,
  en: (n: number) => `Episode ${n}`,
};

export interface EditorNotice {
  kind: 'success' | 'error';
  text: string;
  link?: { to: string; label: string };
}

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

type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved'; at: number }
  | { kind: 'offline' }
  | { kind: 'failed'; message: string };

interface Values {
  title: string;
  content: string;
  membersOnly: boolean;
}

interface ServerState {
  episodeId: number | null;
  status: EpisodeStatus;
  partNumber: number | null;
  publishAt: string | null;
}

const codePoints = (s: string) => [...s].length;
const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;
const hasText = (html: string) => episodePlainText(html).trim() !== '';

/** What stops a save, in words for the author; null when it may go. */
function problemWith(values: Values, publishing: boolean, t: Translate): string | null {
  const title = values.title.trim();
  if (!title || codePoints(title) > AUTHORING.titleMaxChars)
    return t('publish.episodeTitleRule', { max: AUTHORING.titleMaxChars });
  if (utf8Bytes(values.content) > AUTHORING.contentBytes)
    return t('publish.contentTooLong', { kb: AUTHORING.contentBytes / 1024 });
  if (publishing && !hasText(values.content)) return t('publish.contentEmpty');
  return null;
}

const messageOf = (error: unknown, t: Translate): string =>
  isApiError(error) && error.status === 0
    ? t('publish.offlineAction')
    : isApiError(error) && error.message
      ? error.message
      : t('common.error');

function EditorSession(props: {
  story: OwnStory;
  initial: OwnEpisodeFull | null;
  onCreated: (episodeId: number) => void;
  onClosed: (notice?: EditorNotice) => void;
  onReopen: () => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const queryClient = useQueryClient();
  const { story, initial, onCreated } = props;
  const storyId = story.storyId;
  const lang = storyLang(story.language);

  // The text to start from: the server's, or this browser's copy when that is newer.
  const [start] = useState(() => {
    const local = readDraft(storyId, initial ? initial.episodeId : 'new');
    if (!initial) {
      const fresh: Values = {
        title: DEFAULT_TITLE[lang](story.numberOfparts + 1),
        content: '',
        membersOnly: false,
      };
      return { values: local ?? fresh, restored: local !== null, local };
    }
    const serverCopy = {
      title: initial.title,
      content: initial.content,
      membersOnly: initial.membersOnly,
      updatedAt: initial.updatedAt,
    };
    const restore = shouldRestore(local, serverCopy);
    return { values: restore && local ? local : serverCopy, restored: restore, local };
  });

  const [title, setTitle] = useState(start.values.title);
  const [membersOnly, setMembersOnly] = useState(start.values.membersOnly);
  const [content, setContent] = useState(start.values.content);
  const [server, setServer] = useState<ServerState>({
    episodeId: initial?.episodeId ?? null,
    status: initial?.status ?? 'draft',
    partNumber: initial?.partNumber ?? null,
    publishAt: initial?.publishAt ?? null,
  });
  const [dirty, setDirty] = useState(start.restored);
  const [saveState, setSaveState] = useState<SaveState>({ kind: 'idle' });
  const [localOk, setLocalOk] = useState(true);
  const [restoredNote, setRestoredNote] = useState(start.restored);
  const [notice, setNotice] = useState<EditorNotice | null>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const [when, setWhen] = useState(() => toLocalInput(initial?.publishAt) || nextHourInput());
  const [confirmDelete, setConfirmDelete] = useState(false);

  const values = useRef<Values>(start.values);
  const serverRef = useRef(server);
  const rev = useRef(start.restored ? 1 : 0);
  const savedRev = useRef(0);
  const blockedRev = useRef(-1);
  const revAtMount = useRef(rev.current);
  const lastEditAt = useRef(0);
  const dirtySince = useRef<number | null>(start.restored ? 0 : null);
  const retryAt = useRef(0);
  const inFlight = useRef(0);
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const leaveSentRev = useRef(-1);
  const baseUpdatedAt = initial?.updatedAt ?? null;
  const creatingSince = useRef<number | undefined>(undefined);

  const episodeKey = (): EpisodeKey => serverRef.current.episodeId ?? 'new';
  const updateServer = (next: ServerState) => {
    serverRef.current = next;
    setServer(next);
  };

  const keepLocal = useCallback((): boolean => {
    const draft: LocalDraft = {
      ...values.current,
      editedAt: Date.now(),
      baseUpdatedAt,
      ...(creatingSince.current ? { creatingSince: creatingSince.current } : {}),
    };
    const ok = writeDraft(storyId, serverRef.current.episodeId ?? 'new', draft);
    setLocalOk(ok);
    return ok;
  }, [storyId, baseUpdatedAt]);

  const edit = useCallback(
    (patch: Partial<Values>) => {
      values.current = { ...values.current, ...patch };
      rev.current += 1;
      const now = Date.now();
      lastEditAt.current = now;
      dirtySince.current ??= now;
      keepLocal();
      setDirty(true);
    },
    [keepLocal],
  );

  const onContent = useCallback(
    (html: string) => {
      setContent(html);
      edit({ content: html });
    },
    [edit],
  );

  // A copy kept from before that the server already has (or that lost to a newer server copy)
  // goes, once, on opening: later copies are the author's new typing.
  const [staleCopy] = useState(() =>
    initial && start.local && !start.restored ? initial.episodeId : null,
  );
  useEffect(() => {
    if (staleCopy !== null) removeDraft(storyId, staleCopy);
  }, [staleCopy, storyId]);

  /** A server answer for version `sentRev`: the copy goes once the server has the latest. */
  const confirmed = useCallback(
    (answer: SavedEpisode, sentRev: number) => {
      const wasNew = serverRef.current.episodeId === null;
      if (wasNew) {
        creatingSince.current = undefined;
        const local = readDraft(storyId, 'new');
        if (local) adoptNewDraft(storyId, answer.episodeId, local);
      }
      updateServer({
        episodeId: answer.episodeId,
        status: answer.status,
        partNumber: answer.partNumber,
        publishAt: answer.publishAt,
      });
      if (wasNew) onCreated(answer.episodeId);
      savedRev.current = Math.max(savedRev.current, sentRev);
      if (rev.current === sentRev) {
        removeDraft(storyId, answer.episodeId);
        dirtySince.current = null;
        setDirty(false);
      } else {
        // Typed while the save was on its way: keep the copy and save again soon.
        dirtySince.current = Date.now();
      }
      setSaveState({ kind: 'saved', at: Date.now() });
      void refreshAuthoring(queryClient, storyId);
    },
    [onCreated, queryClient, storyId],
  );

  /**
   * Saves the text with the status given. Saves run one after another, so a new episode is
   * created once and every later save updates it.
   */
  const save = useCallback(
    (
      status: EpisodeStatus,
      publishAt: string | null,
      how: 'auto' | 'manual',
    ): Promise<SavedEpisode | null> => {
      const run = async (): Promise<SavedEpisode | null> => {
        const snapshot = values.current;
        const sentRev = rev.current;
        const problem = problemWith(snapshot, status !== 'draft', t);
        if (problem) {
          blockedRev.current = sentRev;
          setSaveState({ kind: 'failed', message: problem });
          if (how === 'manual') setNotice({ kind: 'error', text: problem });
          return null;
        }
        const isCreate = serverRef.current.episodeId === null;
        if (isCreate) {
          creatingSince.current = Date.now();
          keepLocal();
        }
        inFlight.current += 1;
        setSaveState({ kind: 'saving' });
        try {
          const answer = await saveEpisode({
            ...(isCreate ? {} : { episodeId: serverRef.current.episodeId! }),
            storyId,
            title: snapshot.title.trim(),
            content: snapshot.content,
            membersOnly: snapshot.membersOnly,
            status,
            ...(status === 'scheduled' ? { publishAt } : {}),
          });
          confirmed(answer, sentRev);
          return answer;
        } catch (error) {
          if (isApiError(error) && error.status === 0) {
            // The request may or may not have arrived: creatingSince stays for the next visit.
            retryAt.current = Date.now() + RETRY_OFFLINE_MS;
            setSaveState({ kind: 'offline' });
          } else {
            if (isCreate) {
              creatingSince.current = undefined;
              keepLocal();
            }
            blockedRev.current = sentRev;
            setSaveState({ kind: 'failed', message: messageOf(error, t) });
          }
          if (how === 'manual') setNotice({ kind: 'error', text: messageOf(error, t) });
          return null;
        } finally {
          inFlight.current -= 1;
        }
      };
      const next = chain.current.then(run, run);
      chain.current = next;
      return next;
    },
    [confirmed, keepLocal, storyId, t],
  );

  useEffect(() => {
    const timer = setInterval(() => {
      // Drafts only: edits of a scheduled or published episode go out when the author says so
      // (Save changes, Update), never half-written.
      if (serverRef.current.status !== 'draft' || inFlight.current > 0) return;
      if (rev.current === savedRev.current || rev.current === blockedRev.current) return;
      const now = Date.now();
      if (now < retryAt.current) return;
      const quiet = now - lastEditAt.current >= AUTOSAVE_QUIET_MS;
      const waited =
        dirtySince.current !== null && now - dirtySince.current >= AUTOSAVE_MAX_WAIT_MS;
      if (quiet || waited) void save('draft', null, 'auto');
    }, TICK_MS);
    const online = () => {
      retryAt.current = 0;
    };
    window.addEventListener('online', online);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', online);
    };
  }, [save]);

  // Leaving (tab hidden, closed, reloaded): send the draft with a request that outlives the page.
  // A new episode is not created here: its answer could be lost and the copy kept in this
  // browser would then create it a second time; the copy is enough until the next visit.
  useEffect(() => {
    const leave = () => {
      const episodeId = serverRef.current.episodeId;
      const sentRev = rev.current;
      if (serverRef.current.status !== 'draft' || episodeId === null) return;
      if (sentRev === savedRev.current || sentRev === leaveSentRev.current) return;
      // A save on its way carries an older text and could land after this one: leave it, the
      // copy in this browser has the rest until the next visit.
      if (inFlight.current > 0) return;
      leaveSentRev.current = sentRev;
      const snapshot = values.current;
      if (problemWith(snapshot, false, t)) return;
      void saveEpisodeOnLeave({
        episodeId,
        storyId,
        title: snapshot.title.trim(),
        content: snapshot.content,
        membersOnly: snapshot.membersOnly,
        status: 'draft',
      }).then((answer) => {
        if (answer) confirmed(answer, sentRev);
      });
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') leave();
    };
    // Only when this browser could not keep a copy is there anything to lose by leaving.
    const beforeUnload = (e: BeforeUnloadEvent) => {
      if (!localOk && rev.current !== savedRev.current) e.preventDefault();
    };
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', leave);
    window.addEventListener('beforeunload', beforeUnload);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', leave);
      window.removeEventListener('beforeunload', beforeUnload);
    };
  }, [confirmed, localOk, storyId, t]);

  // Leaving the editor inside the app: a draft with changes is saved on the way out.
  useEffect(
    () => () => {
      if (
        serverRef.current.status !== 'draft' ||
        rev.current === savedRev.current ||
        rev.current === revAtMount.current
      )
        return;
      const snapshot = values.current;
      const episodeId = serverRef.current.episodeId;
      if (problemWith(snapshot, false, t)) return;
      void chain.current.then(() =>
        saveEpisode({
          ...(episodeId === null ? {} : { episodeId }),
          storyId,
          title: snapshot.title.trim(),
          content: snapshot.content,
          membersOnly: snapshot.membersOnly,
          status: 'draft',
        })
          .then((answer) => {
            const local = readDraft(storyId, episodeId ?? 'new');
            if (local && local.content === snapshot.content && local.title === snapshot.title)
              removeDraft(storyId, episodeId ?? 'new');
            void refreshAuthoring(queryClient, storyId);
            return answer;
          })
          .catch(() => undefined),
      );
    },
    // Runs on unmount only; everything it reads is in refs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  // The first save of this new episode went out last time and its answer never came: if a
  // draft of that title was saved since, it is this episode.
  useEffect(() => {
    const since = start.local?.creatingSince;
    if (initial || !since) return;
    let cancelled = false;
    void apiRequest<{ episodes: OwnEpisode[] }>(apiPaths.ownEpisodes(storyId))
      .then(({ episodes }) => {
        if (cancelled || serverRef.current.episodeId !== null) return;
        const match = episodes.find(
          (e) =>
            e.status === 'draft' &&
            e.title === start.values.title.trim() &&
            Date.parse(e.updatedAt) >= since - CREATE_MATCH_SLACK_MS,
        );
        if (!match) return;
        creatingSince.current = undefined;
        const local = readDraft(storyId, 'new');
        if (local) adoptNewDraft(storyId, match.episodeId, local);
        updateServer({ ...serverRef.current, episodeId: match.episodeId });
        onCreated(match.episodeId);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [initial, onCreated, start, storyId]);

  const act = async (
    status: EpisodeStatus,
    publishAt: string | null,
    success: (answer: SavedEpisode) => EditorNotice,
  ) => {
    setNotice(null);
    setBusy(true);
    const answer = await save(status, publishAt, 'manual');
    setBusy(false);
    if (answer) setNotice(success(answer));
  };

  const readLink = (n: number | null) =>
    n ? { to: detailsPath(storyId, n), label: t('publish.readIt') } : undefined;

  const publishNow = () =>
    act('published', null, (a) => ({
      kind: 'success',
      text: a.partNumber
        ? t('publish.publishedAs', { n: a.partNumber })
        : t('publish.publishedUpcoming'),
      link: story.status === 'public' || a.partNumber ? readLink(a.partNumber) : undefined,
    }));

  const saveNow = () => {
    const { status, publishAt } = serverRef.current;
    return act(status, status === 'scheduled' ? publishAt : null, (a) => ({
      kind: 'success',
      text:
        a.status === 'published'
          ? t('publish.updatedLive', { n: a.partNumber ?? '' })
          : a.status === 'scheduled'
            ? t('publish.scheduledFor', { when: formatWhen(a.publishAt) })
            : t('publish.savedDraft'),
    }));
  };

  const schedule = () => {
    const iso = fromLocalInput(when);
    if (!iso || Date.parse(iso) <= Date.now()) {
      setNotice({ kind: 'error', text: t('publish.scheduleFuture') });
      return;
    }
    void act('scheduled', iso, (a) => {
      setScheduling(false);
      return {
        kind: 'success',
        text: t('publish.scheduledFor', { when: formatWhen(a.publishAt) }),
      };
    });
  };

  const unpublish = () =>
    act('draft', null, (a) => ({
      kind: 'success',
      text: a.partNumber ? t('publish.unpublished', { n: a.partNumber }) : t('publish.backToDraft'),
    }));

  const remove = async () => {
    const episodeId = serverRef.current.episodeId;
    setBusy(true);
    setNotice(null);
    try {
      await chain.current;
      if (episodeId !== null) await deleteEpisode(episodeId);
      removeDraft(storyId, episodeKey());
      // Nothing left to save on the way out.
      savedRev.current = rev.current;
      await refreshAuthoring(queryClient, storyId);
      props.onClosed({ kind: 'success', text: t('publish.deleted') });
    } catch (error) {
      setBusy(false);
      setNotice({ kind: 'error', text: messageOf(error, t) });
    }
  };

  const discardRestored = () => {
    removeDraft(storyId, episodeKey());
    savedRev.current = rev.current;
    props.onReopen();
  };

  const words = countWords(episodePlainText(useDeferredValue(content)));
  const isLive = server.status === 'published';
  const stateText = saveStateText(saveState, dirty, server.status, localOk, t);

  return (
    <div className={styles.editor}>
      <div className={styles.editorHead}>
        <p className={styles.episodeState}>
          <StatusBadge status={server.status} />
          {server.partNumber && <span>{t('publish.episodeNumber', { n: server.partNumber })}</span>}
          {server.status === 'scheduled' && server.publishAt && (
            <span>{t('publish.goesOut', { when: formatWhen(server.publishAt) })}</span>
          )}
        </p>
        <p className={styles.saveState} role="status" data-save-state={saveState.kind}>
          {stateText}
        </p>
      </div>

      {restoredNote && (
        <div className={styles.restored} role="note">
          <p>{t('publish.restored')}</p>
          <button type="button" className={ui.buttonQuiet} onClick={() => setRestoredNote(false)}>
            {t('publish.keepRestored')}
          </button>
          <button type="button" className={ui.buttonQuiet} onClick={discardRestored}>
            {t('publish.discardRestored')}
          </button>
        </div>
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

      <div className={styles.editorBar}>
        <div className={styles.viewSwitch} role="group" aria-label={t('publish.view')}>
          <button
            type="button"
            className={ui.chip}
            aria-pressed={!preview}
            onClick={() => setPreview(false)}
          >
            {t('publish.write')}
          </button>
          <button
            type="button"
            className={ui.chip}
            aria-pressed={preview}
            onClick={() => setPreview(true)}
          >
            {t('publish.preview')}
          </button>
        </div>
        <span className={styles.words} aria-live="off">
          {t(words === 1 ? 'publish.wordsOne' : 'publish.words', { n: words })}
        </span>
      </div>

      <MemoEditor
        initialHtml={start.values.content}
        lang={lang}
        label={t('publish.episodeText')}
        placeholder={t('publish.placeholder')}
        onChange={onContent}
        onSaveShortcut={() => void saveNow()}
        hidden={preview}
      />

      {preview && (
        <Preview
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

      {notice && <NoticeLine notice={notice} />}

      <div className={styles.actions}>
        {server.status === 'draft' && (
          <>
            <button type="button" className={ui.button} disabled={busy} onClick={publishNow}>
              {t('publish.publishNow')}
            </button>
            <button
              type="button"
              className={ui.buttonSecondary}
              disabled={busy}
              aria-expanded={scheduling}
              onClick={() => setScheduling((s) => !s)}
            >
              {t('publish.schedule')}
            </button>
            <button
              type="button"
              className={ui.buttonSecondary}
              disabled={busy}
              onClick={() => void saveNow()}
            >
              {t('publish.saveDraft')}
            </button>
          </>
        )}
        {server.status === 'scheduled' && (
          <>
            <button
              type="button"
              className={ui.button}
              disabled={busy}
              onClick={() => void saveNow()}
            >
              {t('publish.saveChanges')}
            </button>
            <button
              type="button"
              className={ui.buttonSecondary}
              disabled={busy}
              onClick={publishNow}
            >
              {t('publish.publishNow')}
            </button>
            <button
              type="button"
              className={ui.buttonSecondary}
              disabled={busy}
              aria-expanded={scheduling}
              onClick={() => setScheduling((s) => !s)}
            >
              {t('publish.reschedule')}
            </button>
            <button type="button" className={ui.buttonQuiet} disabled={busy} onClick={unpublish}>
              {t('publish.toDraft')}
            </button>
          </>
        )}
        {isLive && (
          <>
            <button
              type="button"
              className={ui.button}
              disabled={busy}
              onClick={() => void saveNow()}
            >
              {t('publish.update')}
            </button>
            {server.partNumber && (
              <Link className={ui.buttonSecondary} to={detailsPath(storyId, server.partNumber)}>
                {t('publish.readIt')}
              </Link>
            )}
            <button type="button" className={ui.buttonQuiet} disabled={busy} onClick={unpublish}>
              {t('publish.unpublish')}
            </button>
          </>
        )}
      </div>

      {scheduling && (
        <div className={styles.schedule}>
          <div className={ui.field}>
            <label className={ui.label} htmlFor={`${id}-when`}>
              {t('publish.publishAt')}
            </label>
            <input
              id={`${id}-when`}
              type="datetime-local"
              className={ui.input}
              value={when}
              min={toLocalInput(new Date().toISOString())}
              onChange={(e) => setWhen(e.target.value)}
            />
            <span className={ui.hint}>{t('publish.publishAtHint')}</span>
          </div>
          <button type="button" className={ui.button} disabled={busy} onClick={schedule}>
            {t('publish.scheduleConfirm')}
          </button>
        </div>
      )}

      <div className={styles.danger}>
        {confirmDelete ? (
          <div className={styles.confirm} role="alertdialog" aria-labelledby={`${id}-del`}>
            <p id={`${id}-del`}>
              {isLive ? t('publish.deleteLiveConfirm') : t('publish.deleteConfirm')}
            </p>
            <button
              type="button"
              className={styles.dangerButton}
              disabled={busy}
              onClick={() => void remove()}
            >
              {t('publish.deleteYes')}
            </button>
            <button
              type="button"
              className={ui.buttonQuiet}
              onClick={() => setConfirmDelete(false)}
            >
              {t('publish.cancel')}
            </button>
          </div>
        ) : (
          <button
            type="button"
            className={styles.deleteLink}
            disabled={busy}
            onClick={() => setConfirmDelete(true)}
          >
            {t('publish.delete')}
          </button>
        )}
      </div>
    </div>
  );
}

const MemoEditor = memo(RichTextEditor);

function saveStateText(
  state: SaveState,
  dirty: boolean,
  status: EpisodeStatus,
  localOk: boolean,
  t: Translate,
): string {
  const device = localOk ? '' : ` ${t('publish.notKept')}`;
  if (state.kind === 'saving') return t('publish.saving');
  if (state.kind === 'offline') return t('publish.offline') + device;
  if (state.kind === 'failed') return t('publish.notSaved', { reason: state.message });
  if (dirty && status === 'published') return t('publish.pendingLive') + device;
  if (dirty && status === 'scheduled') return t('publish.pendingScheduled') + device;
  if (dirty) return t('publish.unsaved') + device;
  if (state.kind === 'saved') return t('publish.savedAt', { time: formatClock(state.at) });
  return t('publish.allSaved');
}

const STATUS_CLASS: Record<EpisodeStatus, string | undefined> = {
  draft: styles.statusDraft,
  scheduled: styles.statusScheduled,
  published: styles.statusPublished,
};

export function StatusBadge({ status }: { status: EpisodeStatus }) {
  const { t } = useI18n();
  return (
    <span className={`${styles.status} ${STATUS_CLASS[status] ?? ''}`}>
      {t(`publish.status.${status}`)}
    </span>
  );
}

export function NoticeLine({ notice }: { notice: EditorNotice }) {
  return (
    <div
      className={notice.kind === 'success' ? ui.noticeSuccess : ui.noticeError}
      role={notice.kind === 'success' ? 'status' : 'alert'}
    >
      <p>
        {notice.text}
        {notice.link && (
          <>
            {' '}
            <Link to={notice.link.to}>{notice.link.label}</Link>
          </>
        )}
      </p>
    </div>
  );
}

/** The episode as a reader will see it: number, title, text and the end line. */
function Preview(props: {
  story: OwnStory;
  title: string;
  content: string;
  partNumber: number | null;
  lang: 'si' | 'en';
}) {
  const { t } = useI18n();
  const { story, partNumber } = props;
  const n = partNumber ?? story.numberOfparts + 1;
  const total = partNumber ? story.numberOfparts : n;
  const footer = episodeFooter(story, n >= total);
  let body: ReactNode = <EpisodeText content={props.content} lang={props.lang} />;
  if (!hasText(props.content)) body = <p className={ui.hint}>{t('publish.previewEmpty')}</p>;
  return (
    <section className={`${reader.reading} ${styles.preview}`} aria-label={t('publish.preview')}>
      <header className={reader.episodeHeader}>
        <p className={reader.episodeNumber}>{t('details.episodeOf', { n, total })}</p>
        {props.title.trim() && (
          <h2 className={reader.episodeTitle} lang={props.lang}>
            {props.title.trim()}
          </h2>
        )}
      </header>
      {body}
      {footer && (
        <p className={reader.footer} lang={props.lang}>
          {footer}
        </p>
      )}
    </section>
  );
}
