/**
 * The episode editor's save machinery. Every edit is kept in this browser at once (drafts.ts);
 * a draft is saved by itself shortly after typing stops, retried when the connection is back,
 * sent with a keepalive request when the page goes away and saved when the editor closes.
 * Saves run one after another, so a new episode is created once and every later save updates it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { apiPaths, type EpisodeStatus, type OwnEpisode, type OwnStory } from '@kathamala/domain';
import {
  deleteEpisode,
  refreshAuthoring,
  saveEpisode,
  saveEpisodeOnLeave,
  type OwnEpisodeFull,
  type SavedEpisode,
} from '../../api/authoring.ts';
import { apiRequest, isApiError } from '../../api/client.ts';
import { useI18n } from '../../i18n/index.tsx';
import { storyLang } from '../stories/lang.ts';
import {
  autosaveDue,
  defaultTitle,
  episodeInput,
  findLostCreate,
  initialProgress,
  openingCopy,
  RETRY_OFFLINE_MS,
  saveOnClose,
  sendOnLeave,
  TICK_MS,
  warnOnUnload,
  type OpeningCopy,
  type SaveState,
  type ServerState,
  type Values,
} from './autosave.ts';
import { adoptNewDraft, readDraft, removeDraft, writeDraft, type LocalDraft } from './drafts.ts';
import { messageOf, problemWith } from './episodeChecks.ts';

/** A status to save with; without one a save keeps the episode's status (and time). */
export interface SaveTarget {
  status: EpisodeStatus;
  publishAt: string | null;
}

/** How a save went: the server's answer, or the reason in words for the author. */
export type SaveOutcome = { ok: true; answer: SavedEpisode } | { ok: false; message: string };

/** What the editor gets from useEpisodeAutosave. */
export interface EpisodeAutosave {
  /** The text to open with: the server's, or this browser's newer copy (`restored`). */
  start: OpeningCopy;
  /** Where the episode stands on the server. */
  server: ServerState;
  saveState: SaveState;
  /** Something typed is not on the server yet. */
  dirty: boolean;
  /** False when this browser refused to keep a copy (storage full or blocked). */
  localOk: boolean;
  /** Takes an edit: kept in this browser at once, saved soon if it is a draft. */
  edit: (patch: Partial<Values>) => void;
  /** Saves now, after any save on its way; with no target the status stays as it is. */
  save: (target?: SaveTarget) => Promise<SaveOutcome>;
  /** Drops this browser's copy: nothing is left to save on the way out. */
  forget: () => void;
  /** Deletes the episode (after any save on its way) and its copy; throws when that fails. */
  remove: () => Promise<void>;
}

/**
 * Saves an episode while its author writes. `onCreated` hears the id a new episode gets, once.
 * Meant for one editor session: open another episode with a new React key.
 */
export function useEpisodeAutosave(props: {
  story: OwnStory;
  initial: OwnEpisodeFull | null;
  onCreated: (episodeId: number) => void;
}): EpisodeAutosave {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const { story, initial, onCreated } = props;
  const storyId = story.storyId;

  const [start] = useState(() =>
    openingCopy(
      readDraft(storyId, initial ? initial.episodeId : 'new'),
      initial,
      defaultTitle(storyLang(story.language), story.numberOfparts + 1),
    ),
  );
  const [server, setServer] = useState<ServerState>({
    episodeId: initial?.episodeId ?? null,
    status: initial?.status ?? 'draft',
    partNumber: initial?.partNumber ?? null,
    publishAt: initial?.publishAt ?? null,
  });
  const [dirty, setDirty] = useState(start.restored);
  const [saveState, setSaveState] = useState<SaveState>({ kind: 'idle' });
  const [localOk, setLocalOk] = useState(true);

  // Read by timers and page events, which must see the latest without being set up again.
  const values = useRef<Values>(start.values);
  const serverRef = useRef(server);
  const progress = useRef(initialProgress(start.restored));
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const creatingSince = useRef<number | undefined>(undefined);
  const baseUpdatedAt = initial?.updatedAt ?? null;

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
      const p = progress.current;
      p.rev += 1;
      const now = Date.now();
      p.lastEditAt = now;
      p.dirtySince ??= now;
      keepLocal();
      setDirty(true);
    },
    [keepLocal],
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
      const p = progress.current;
      p.savedRev = Math.max(p.savedRev, sentRev);
      if (p.rev === sentRev) {
        removeDraft(storyId, answer.episodeId);
        p.dirtySince = null;
        setDirty(false);
      } else {
        // Typed while the save was on its way: keep the copy and save again soon.
        p.dirtySince = Date.now();
      }
      setSaveState({ kind: 'saved', at: Date.now() });
      void refreshAuthoring(queryClient, storyId);
    },
    [onCreated, queryClient, storyId],
  );

  const save = useCallback(
    (target?: SaveTarget): Promise<SaveOutcome> => {
      // The status as it stands when asked, not when this save's turn comes.
      const { status, publishAt } = target ?? serverRef.current;
      const run = async (): Promise<SaveOutcome> => {
        const p = progress.current;
        const snapshot = values.current;
        const sentRev = p.rev;
        const problem = problemWith(snapshot, status !== 'draft', t);
        if (problem) {
          p.blockedRev = sentRev;
          setSaveState({ kind: 'failed', message: problem });
          return { ok: false, message: problem };
        }
        const isCreate = serverRef.current.episodeId === null;
        if (isCreate) {
          creatingSince.current = Date.now();
          keepLocal();
        }
        p.inFlight += 1;
        setSaveState({ kind: 'saving' });
        try {
          const answer = await saveEpisode(
            episodeInput(storyId, serverRef.current.episodeId, snapshot, status, publishAt),
          );
          confirmed(answer, sentRev);
          return { ok: true, answer };
        } catch (error) {
          if (isApiError(error) && error.status === 0) {
            // The request may or may not have arrived: creatingSince stays for the next visit.
            p.retryAt = Date.now() + RETRY_OFFLINE_MS;
            setSaveState({ kind: 'offline' });
          } else {
            if (isCreate) {
              creatingSince.current = undefined;
              keepLocal();
            }
            p.blockedRev = sentRev;
            setSaveState({ kind: 'failed', message: messageOf(error, t) });
          }
          return { ok: false, message: messageOf(error, t) };
        } finally {
          p.inFlight -= 1;
        }
      };
      const next = chain.current.then(run, run);
      chain.current = next;
      return next;
    },
    [confirmed, keepLocal, storyId, t],
  );

  const forget = useCallback(() => {
    removeDraft(storyId, serverRef.current.episodeId ?? 'new');
    progress.current.savedRev = progress.current.rev;
  }, [storyId]);

  const remove = useCallback(async () => {
    // A first autosave may still be on its way: its answer gives the id to delete.
    await chain.current;
    const episodeId = serverRef.current.episodeId;
    if (episodeId !== null) await deleteEpisode(episodeId);
    forget();
    await refreshAuthoring(queryClient, storyId);
  }, [forget, queryClient, storyId]);

  // Autosave of drafts; after a save found no connection, the browser going online ends the wait.
  useEffect(() => {
    const timer = setInterval(() => {
      if (autosaveDue(progress.current, serverRef.current.status, Date.now()))
        void save({ status: 'draft', publishAt: null });
    }, TICK_MS);
    const online = () => {
      progress.current.retryAt = 0;
    };
    window.addEventListener('online', online);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', online);
    };
  }, [save]);

  // Leaving (tab hidden, closed, reloaded): send the draft with a request that outlives the page.
  useEffect(() => {
    const leave = () => {
      const p = progress.current;
      const episodeId = serverRef.current.episodeId;
      const sentRev = p.rev;
      if (!sendOnLeave(p, serverRef.current) || episodeId === null) return;
      p.leaveSentRev = sentRev;
      const snapshot = values.current;
      if (problemWith(snapshot, false, t)) return;
      void saveEpisodeOnLeave(episodeInput(storyId, episodeId, snapshot, 'draft')).then(
        (answer) => {
          if (answer) confirmed(answer, sentRev);
        },
      );
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') leave();
    };
    // Only when this browser could not keep a copy is there anything to lose by leaving.
    const beforeUnload = (e: BeforeUnloadEvent) => {
      if (warnOnUnload(progress.current, localOk)) e.preventDefault();
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
      if (!saveOnClose(progress.current, serverRef.current.status)) return;
      const snapshot = values.current;
      const episodeId = serverRef.current.episodeId;
      if (problemWith(snapshot, false, t)) return;
      void chain.current.then(() =>
        saveEpisode(episodeInput(storyId, episodeId, snapshot, 'draft'))
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
        const match = findLostCreate(episodes, start.values.title, since);
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

  return { start, server, saveState, dirty, localOk, edit, save, forget, remove };
}
