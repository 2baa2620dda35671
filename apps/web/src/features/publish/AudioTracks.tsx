import { useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { AUDIO_LIMITS, type AuthorAudioTrack, type OwnStory } from '@kathamala/domain';
import {
  audioPaths,
  deleteTrack,
  saveTrack,
  uploadTrack,
  useAuthorTracks,
  type TrackFields,
} from '../../api/audio.ts';
import { isApiError } from '../../api/client.ts';
import { ErrorNotice } from '../../components/Notice.tsx';
import { SkeletonLines } from '../../components/Skeleton.tsx';
import { useI18n, type Translate } from '../../i18n/index.tsx';
import { clock } from '../audio/model.ts';
import { storyLang } from '../stories/lang.ts';
import { NoticeLine, type EditorNotice } from './EditorBits.tsx';
import ui from '../../components/ui.module.css';
import styles from './publish.module.css';
import own from './AudioTracks.module.css';

const MAX_MB = Math.round(AUDIO_LIMITS.maxBytes / 1024 / 1024);
/** The formats the issue names; the server judges the bytes whatever the name says. */
const ACCEPT = '.mp3,.m4a,.aac,.wav,.ogg,.opus,audio/mpeg,audio/mp4,audio/aac,audio/wav,audio/ogg';

/** The server's sentence when it gave one, ours otherwise. */
const messageOf = (err: unknown, t: Translate): string =>
  isApiError(err) && err.message && err.message !== 'network' ? err.message : t('common.error');

/** A track's title from its file name ("chapter-1.mp3" gives "chapter-1"). */
const titleFromFile = (name: string): string => name.replace(/\.[^.]+$/, '').slice(0, 200);

/** A part number typed by the author: a whole number from 1, or null when left empty. */
const partOf = (raw: string): number | null =>
  /^\d{1,6}$/.test(raw.trim()) && Number(raw) > 0 ? Number(raw) : null;

/**
 * The story's audio on the publish page (issue 29): upload a track, see it processing, ready or
 * failed (with the reason, asked again every few seconds while any is processing), order,
 * edit, replace or delete it.
 */
export function AudioTracks(props: { story: OwnStory }) {
  const { t } = useI18n();
  const { story } = props;
  const tracks = useAuthorTracks(story.storyId);
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<EditorNotice | null>(null);
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: [audioPaths.tracks(story.storyId)] });
  const list = tracks.data ? [...tracks.data.tracks].sort((a, b) => a.position - b.position) : [];

  return (
    <section className={styles.episodes} aria-labelledby="audio-heading">
      <h2 id="audio-heading" className={styles.panelTitle}>
        {t('audioPublish.title')}
      </h2>
      <p className={ui.hint}>{t('audioPublish.intro', { mb: MAX_MB })}</p>
      <UploadForm
        story={story}
        onDone={(text) => {
          setNotice({ kind: 'success', text });
          void refresh();
        }}
      />
      {notice && <NoticeLine notice={notice} />}
      <h3 className={own.listTitle}>{t('audioPublish.list')}</h3>
      {tracks.isPending ? (
        <SkeletonLines lines={3} label={t('common.loading')} />
      ) : tracks.isError ? (
        <ErrorNotice error={tracks.error} onRetry={() => void tracks.refetch()} />
      ) : list.length === 0 ? (
        <p className={styles.empty}>{t('audioPublish.empty')}</p>
      ) : (
        <ol className={styles.episodeList}>
          {list.map((track, i) => (
            <TrackRow
              key={track.trackId}
              story={story}
              track={track}
              first={i === 0}
              last={i === list.length - 1}
              onChanged={(text) => {
                setNotice(text ? { kind: 'success', text } : null);
                return refresh();
              }}
              onError={(text) => setNotice({ kind: 'error', text })}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

/** The upload form: file, title, optional part, members-only (forced for a members' story). */
function UploadForm(props: { story: OwnStory; onDone: (text: string) => void }) {
  const { t } = useI18n();
  const id = useId();
  const { story } = props;
  const form = useRef<HTMLFormElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const fields = useTrackFields({ title: '', part: '', membersOnly: story.membersOnly });
  const { title, part, membersOnly, setTitle, setPart } = fields;
  const [sent, setSent] = useState<number | null>(null);
  const [error, setError] = useState('');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (sent !== null) return;
    if (!file) return setError(t('audioPublish.chooseFile'));
    if (!title.trim()) return setError(t('audioPublish.titleNeeded'));
    if (file.size > AUDIO_LIMITS.maxBytes)
      return setError(t('audioPublish.tooBig', { mb: MAX_MB }));
    setError('');
    setSent(0);
    const fields: TrackFields = {
      title: title.trim(),
      partNumber: partOf(part),
      membersOnly: story.membersOnly || membersOnly,
    };
    uploadTrack(story.storyId, file, fields, setSent).then(
      () => {
        setSent(null);
        setFile(null);
        setTitle('');
        setPart('');
        form.current?.reset();
        props.onDone(t('audioPublish.uploaded'));
      },
      (err: unknown) => {
        setSent(null);
        setError(messageOf(err, t));
      },
    );
  };

  return (
    <form ref={form} method="post" className={own.upload} onSubmit={submit} noValidate>
      <div className={ui.field}>
        <label className={ui.label} htmlFor={`${id}-file`}>
          {t('audioPublish.file')}
        </label>
        <input
          id={`${id}-file`}
          type="file"
          className={styles.fileInput}
          accept={ACCEPT}
          onChange={(e) => {
            const chosen = e.currentTarget.files?.[0] ?? null;
            setFile(chosen);
            if (chosen && !title) setTitle(titleFromFile(chosen.name));
          }}
        />
      </div>
      <TrackFieldInputs story={story} {...fields.inputs} />
      {error && (
        <p className={ui.fieldError} role="alert">
          {error}
        </p>
      )}
      <div className={styles.actions}>
        <button type="submit" className={ui.button} disabled={sent !== null}>
          {t('audioPublish.upload')}
        </button>
        {sent !== null && <UploadProgress sent={sent} />}
      </div>
    </form>
  );
}

type FieldValues = { title: string; part: string; membersOnly: boolean };

/** The title, part and members-only values of a track form, and the props of their inputs. */
function useTrackFields(initial: FieldValues) {
  const [title, setTitle] = useState(initial.title);
  const [part, setPart] = useState(initial.part);
  const [membersOnly, setMembersOnly] = useState(initial.membersOnly);
  return {
    title,
    part,
    membersOnly,
    setTitle,
    setPart,
    inputs: {
      values: { title, part, membersOnly },
      onTitle: setTitle,
      onPart: setPart,
      onMembersOnly: setMembersOnly,
    },
  };
}

/** A track's title, part number and members-only box (forced on for a members' story). */
function TrackFieldInputs(props: {
  story: OwnStory;
  values: FieldValues;
  onTitle: (value: string) => void;
  onPart: (value: string) => void;
  onMembersOnly: (value: boolean) => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const { story, values } = props;
  return (
    <>
      <div className={own.fields}>
        <div className={ui.field}>
          <label className={ui.label} htmlFor={`${id}-title`}>
            {t('audioPublish.trackTitle')}
          </label>
          <input
            id={`${id}-title`}
            className={ui.input}
            value={values.title}
            maxLength={200}
            lang={storyLang(story.language)}
            onInput={(e) => props.onTitle(e.currentTarget.value)}
          />
        </div>
        <div className={ui.field}>
          <label className={ui.label} htmlFor={`${id}-part`}>
            {t('audioPublish.part')}
          </label>
          <input
            id={`${id}-part`}
            className={`${ui.input} ${own.part}`}
            inputMode="numeric"
            value={values.part}
            aria-describedby={`${id}-part-hint`}
            onInput={(e) => props.onPart(e.currentTarget.value)}
          />
          <p className={ui.hint} id={`${id}-part-hint`}>
            {t('audioPublish.partHint')}
          </p>
        </div>
      </div>
      <label className={styles.check}>
        <input
          type="checkbox"
          checked={story.membersOnly || values.membersOnly}
          disabled={story.membersOnly}
          aria-describedby={story.membersOnly ? `${id}-forced` : undefined}
          onChange={(e) => props.onMembersOnly(e.currentTarget.checked)}
        />
        <span>{t('audioPublish.membersOnly')}</span>
      </label>
      {story.membersOnly && (
        <p className={ui.hint} id={`${id}-forced`}>
          {t('audioPublish.membersForced')}
        </p>
      )}
    </>
  );
}

/** How much of the file has gone, as a bar and in words. */
function UploadProgress({ sent }: { sent: number }) {
  const { t } = useI18n();
  const percent = Math.round(sent * 100);
  const text = t('audioPublish.uploading', { percent });
  return (
    <span className={own.progress} role="status">
      <progress max={100} value={percent} aria-label={text} />
      <span>{text}</span>
    </span>
  );
}

const STATUS_CLASS = {
  processing: styles.statusScheduled,
  ready: styles.statusPublished,
  failed: own.statusFailed,
} as const;

/** One track: where it stands, and its buttons (order, edit, replace, delete). */
function TrackRow(props: {
  story: OwnStory;
  track: AuthorAudioTrack;
  first: boolean;
  last: boolean;
  onChanged: (text?: string) => Promise<unknown>;
  onError: (text: string) => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const { track, story, onChanged, onError } = props;
  const lang = storyLang(story.language);
  const [mode, setMode] = useState<'view' | 'edit' | 'delete'>('view');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<number | null>(null);
  const replaceInput = useRef<HTMLInputElement>(null);
  const fields = useTrackFields({
    title: track.title,
    part: track.partNumber === null ? '' : String(track.partNumber),
    membersOnly: track.membersOnly,
  });
  const { title, part, membersOnly } = fields;

  const run = (work: () => Promise<unknown>, done?: string) => {
    setBusy(true);
    work()
      .then(() => onChanged(done))
      .catch((err: unknown) => onError(messageOf(err, t)))
      .finally(() => setBusy(false));
  };
  const move = (delta: number) =>
    run(() => saveTrack({ trackId: track.trackId, position: track.position + delta }));
  const save = (e: FormEvent) => {
    e.preventDefault();
    if (!title.trim()) return onError(t('audioPublish.titleNeeded'));
    run(
      () =>
        saveTrack({
          trackId: track.trackId,
          title: title.trim(),
          partNumber: partOf(part),
          membersOnly: story.membersOnly || membersOnly,
        }).then(() => setMode('view')),
      t('audioPublish.saved'),
    );
  };
  // No replace call: the new file is uploaded as a track of its own with this one's fields, put
  // in this one's place, and this one deleted.
  const replace = (file: File) => {
    setSent(0);
    run(async () => {
      try {
        const fields = {
          title: track.title,
          partNumber: track.partNumber,
          membersOnly: track.membersOnly,
        };
        const added = await uploadTrack(story.storyId, file, fields, setSent);
        await saveTrack({ trackId: added.trackId, position: track.position });
        await deleteTrack(track.trackId);
      } finally {
        setSent(null);
      }
    }, t('audioPublish.replaced'));
  };

  const statusText =
    track.status === 'processing'
      ? t('audioPublish.processing')
      : track.status === 'ready'
        ? t('audioPublish.ready')
        : t('audioPublish.failed');

  return (
    <li className={own.row} data-track-status={track.status} aria-busy={busy}>
      <div className={own.rowMain}>
        <span className={styles.itemTitle} lang={lang}>
          {track.title}
        </span>
        <span className={styles.itemMeta}>
          <span className={`${styles.status} ${STATUS_CLASS[track.status]}`}>{statusText}</span>
          <span>
            {track.partNumber === null
              ? t('audioPublish.wholeStory')
              : t('audioPublish.episode', { n: track.partNumber })}
          </span>
          {track.durationSeconds !== null && <span>{clock(track.durationSeconds)}</span>}
          {track.membersOnly && <span>{t('audioPublish.membersOnly')}</span>}
        </span>
        {track.status === 'failed' && track.reason && <p className={own.reason}>{track.reason}</p>}
      </div>
      {sent !== null && <UploadProgress sent={sent} />}

      {mode === 'edit' ? (
        <form method="post" className={own.edit} onSubmit={save} noValidate>
          <TrackFieldInputs story={story} {...fields.inputs} />
          <div className={styles.actions}>
            <button type="submit" className={ui.button} disabled={busy}>
              {t('audioPublish.save')}
            </button>
            <button type="button" className={ui.buttonQuiet} onClick={() => setMode('view')}>
              {t('audioPublish.cancel')}
            </button>
          </div>
        </form>
      ) : mode === 'delete' ? (
        <div className={own.confirm} role="group" aria-labelledby={`${id}-ask`}>
          <p id={`${id}-ask`}>{t('audioPublish.deleteConfirm', { title: track.title })}</p>
          <div className={styles.actions}>
            <button
              type="button"
              className={own.danger}
              disabled={busy}
              onClick={() => run(() => deleteTrack(track.trackId), t('audioPublish.deleted'))}
            >
              {t('audioPublish.deleteYes')}
            </button>
            <button
              type="button"
              className={ui.buttonSecondary}
              autoFocus
              onClick={() => setMode('view')}
            >
              {t('audioPublish.deleteNo')}
            </button>
          </div>
        </div>
      ) : (
        <div className={own.buttons}>
          <button
            type="button"
            className={own.small}
            disabled={busy || props.first}
            onClick={() => move(-1)}
            aria-label={t('audioPublish.up', { title: track.title })}
          >
            <span aria-hidden="true">↑</span>
          </button>
          <button
            type="button"
            className={own.small}
            disabled={busy || props.last}
            onClick={() => move(1)}
            aria-label={t('audioPublish.down', { title: track.title })}
          >
            <span aria-hidden="true">↓</span>
          </button>
          <button
            type="button"
            className={own.small}
            disabled={busy}
            onClick={() => setMode('edit')}
            aria-label={t('audioPublish.editLabel', { title: track.title })}
          >
            {t('audioPublish.edit')}
          </button>
          <button
            type="button"
            className={own.small}
            disabled={busy}
            onClick={() => replaceInput.current?.click()}
            aria-label={t('audioPublish.replaceLabel', { title: track.title })}
          >
            {t('audioPublish.replace')}
          </button>
          <input
            ref={replaceInput}
            type="file"
            accept={ACCEPT}
            hidden
            onChange={(e) => {
              const chosen = e.currentTarget.files?.[0];
              e.currentTarget.value = '';
              if (chosen) replace(chosen);
            }}
          />
          <button
            type="button"
            className={`${own.small} ${own.smallDanger}`}
            disabled={busy}
            onClick={() => setMode('delete')}
            aria-label={t('audioPublish.deleteLabel', { title: track.title })}
          >
            {t('audioPublish.delete')}
          </button>
        </div>
      )}
    </li>
  );
}
