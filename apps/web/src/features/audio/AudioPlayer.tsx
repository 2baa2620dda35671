import { useCallback, useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  coverSizeUrl,
  detailsPath,
  type AudioBook,
  type AudioQuality,
} from '@kathamala/domain';
import { sendProgress, sendProgressOnLeave } from '../../api/audio.ts';
import { useConfig } from '../../config.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { SubscriptionWall } from '../reader/SubscriptionWall.tsx';
import {
  afterEnd,
  chooseQuality,
  clock,
  firstTrack,
  megabytes,
  nextTrack,
  playable,
  previousTrack,
  QUALITY_TYPES,
  SEEK_STEP,
  seekTarget,
  shouldSendProgress,
  SLEEP_CHOICES,
  sleepDeadline,
  sleepDue,
  SPEEDS,
  START_VOLUME,
  startAt,
  streamUrl,
  type SleepChoice,
} from './model.ts';
import { browserSavesData, storedQuality, storedSpeed, storeQuality, storeSpeed } from './prefs.ts';
import { onStopAudio } from './stopAudio.ts';
import styles from './audio.module.css';

/** The props the Audio book button hands over when the player's code has loaded. */
export interface AudioPlayerProps {
  storyId: number;
  storyTitle: string;
  author: { name: string; keyword: string; appId: string };
  /** The story's language tag for titles (`si`, `en`). */
  lang: string;
  tracks: AudioBook[];
  /** The part on screen: its track plays first. */
  partNumber: number;
  loggedIn: boolean;
  /** Whether the dialog is on screen (hidden, it keeps playing). */
  open: boolean;
  onHide: () => void;
  onStop: () => void;
}

type Status = 'loading' | 'playing' | 'paused';

// Where the listener is in each track during this visit, over the server's saved places: a
// player closed and opened again resumes where it stopped, not where the page load said.
const heard = new Map<number, number>();

const canPlay = (type: string): boolean =>
  typeof Audio !== 'undefined' && new Audio().canPlayType(type) !== '';

/**
 * The audio book player (SPEC.md 2 and 9): a 320 px dialog on a desktop, a bottom sheet on a
 * phone. Loaded only when the Audio book button is pressed.
 */
export default function AudioPlayer(props: AudioPlayerProps) {
  const { t } = useI18n();
  const { imagesHost } = useConfig();
  const queryClient = useQueryClient();
  const id = useId();
  const { tracks, loggedIn, onStop, onHide } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const [index, setIndex] = useState<number | null>(() => firstTrack(tracks, props.partNumber));
  const [locked, setLocked] = useState<number | null>(null);
  const [status, setStatus] = useState<Status>('loading');
  const [position, setPosition] = useState(0);
  const [duration, setDuration] = useState(0);
  const [speed, setSpeed] = useState(storedSpeed);
  const [quality, setQuality] = useState<AudioQuality>(() =>
    chooseQuality({ stored: storedQuality(), saveData: browserSavesData(), canPlay }),
  );
  const [sleep, setSleep] = useState<SleepChoice>('off');
  const deadline = useRef<number | 'end' | null>(null);
  const [failed, setFailed] = useState(false);
  // Play as soon as the track loads: on opening, and after a track ends into the next.
  const wantPlay = useRef(true);
  const pendingSeek = useRef<number | null>(null);
  const lastSent = useRef<{ trackId: number; at: number; position: number } | null>(null);

  // A list asked again may have lost the track (deleted meanwhile): then there is none.
  const track = index === null ? null : (tracks[index] ?? null);
  const trackId = track?.trackId ?? null;
  // The track as it was when it started loading: a details answer asked again (a fresh object,
  // perhaps a fresh members' prefix) does not start it over.
  const loading = useRef(track);
  if (loading.current?.trackId !== trackId) loading.current = track;

  // Show or hide the dialog; the <audio> inside keeps playing while it is hidden.
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (props.open && !d.open) d.showModal();
    else if (!props.open && d.open) d.close();
  }, [props.open]);

  /** Keeps the place in this visit and, for a logged-in listener, on the server. */
  const save = useCallback(
    (how: 'tick' | 'now' | 'leave') => {
      const a = audio.current;
      if (!a || trackId === null || !a.src) return;
      const at = a.currentTime;
      heard.set(trackId, at);
      if (!loggedIn) return;
      const now = Date.now();
      const last = lastSent.current?.trackId === trackId ? lastSent.current : null;
      if (how === 'tick' && !shouldSendProgress(last, now, at)) return;
      if (how !== 'tick' && last && Math.abs(last.position - at) < 0.5) return;
      lastSent.current = { trackId, at: now, position: at };
      if (how === 'leave') sendProgressOnLeave(trackId, at);
      else
        sendProgress(trackId, at).then(
          // A finished part's track moved Continue reading on: the home page's row follows.
          (answer) => {
            if (answer.continuePart)
              void queryClient.invalidateQueries({ queryKey: [apiPaths.continueReading()] });
          },
          () => undefined,
        );
    },
    [trackId, loggedIn, queryClient],
  );

  // A new track or quality: load it, at the place the listener left it.
  useEffect(() => {
    const a = audio.current;
    const current = loading.current;
    if (!a || !current?.prefix) return;
    const saved = heard.get(current.trackId) ?? current.positionSeconds;
    pendingSeek.current = startAt(saved, current.durationSeconds);
    setFailed(false);
    setStatus('loading');
    setPosition(pendingSeek.current);
    setDuration(current.durationSeconds);
    a.src = streamUrl(current.prefix, quality);
    a.volume = START_VOLUME;
    a.load();
    if (wantPlay.current) a.play().catch(() => setStatus('paused'));
  }, [trackId, quality]);

  // The speed applies to this track and the ones after it (load() resets playbackRate).
  useEffect(() => {
    const a = audio.current;
    if (!a) return;
    a.defaultPlaybackRate = speed;
    a.playbackRate = speed;
  }, [speed, trackId, quality]);

  // Every second while playing: the time shown, the sleep timer, the place sent now and then.
  useEffect(() => {
    if (status !== 'playing') return;
    const timer = window.setInterval(() => {
      const a = audio.current;
      if (!a) return;
      setPosition(a.currentTime);
      if (sleepDue(deadline.current, Date.now())) {
        deadline.current = null;
        setSleep('off');
        a.pause();
        return;
      }
      save('tick');
    }, 1_000);
    return () => window.clearInterval(timer);
  }, [status, save]);

  const play = useCallback(() => {
    wantPlay.current = true;
    void audio.current?.play().catch(() => setStatus('paused'));
  }, []);
  const pause = useCallback(() => {
    wantPlay.current = false;
    audio.current?.pause();
  }, []);
  const seekBy = useCallback((delta: number) => {
    const a = audio.current;
    if (!a) return;
    a.currentTime = seekTarget(a.currentTime, delta, a.duration);
    setPosition(a.currentTime);
  }, []);
  const goTo = useCallback(
    (i: number | null) => {
      if (i === null) return;
      save('now');
      wantPlay.current = true;
      setLocked(null);
      setIndex(i);
    },
    [save],
  );

  // Stop-audio (SPEC.md 4): logout and leaving the story stop the player.
  useEffect(
    () =>
      onStopAudio(() => {
        audio.current?.pause();
        save('leave');
        onStop();
      }),
    [save, onStop],
  );

  // The page going away (tab closed, reload, another site): the place goes with a keepalive.
  const saveNow = useRef(save);
  saveNow.current = save;
  useEffect(() => {
    const a = audio.current;
    const leave = () => saveNow.current('leave');
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      // Unmounted (stopped, or the page changed): silent, the place kept.
      if (a && !a.paused) a.pause();
      leave();
    };
  }, []);

  // Media Session: the lock screen and headset buttons.
  const trackTitle = track?.title;
  const { storyId, storyTitle } = props;
  const authorName = props.author.name;
  useEffect(() => {
    if (!('mediaSession' in navigator) || trackTitle === undefined) return;
    const session = navigator.mediaSession;
    session.metadata = new MediaMetadata({
      title: trackTitle,
      artist: authorName,
      album: storyTitle,
      artwork: [
        { src: coverSizeUrl(imagesHost, storyId, 320), sizes: '320x480', type: 'image/webp' },
      ],
    });
    const handlers: [MediaSessionAction, MediaSessionActionHandler][] = [
      ['play', play],
      ['pause', pause],
      ['seekbackward', () => seekBy(-SEEK_STEP)],
      ['seekforward', () => seekBy(SEEK_STEP)],
      ['previoustrack', () => goTo(previousTrack(tracks, index!))],
      ['nexttrack', () => goTo(nextTrack(tracks, index!))],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // An action this browser does not know.
      }
    }
    return () => {
      for (const [action] of handlers) {
        try {
          session.setActionHandler(action, null);
        } catch {
          // As above.
        }
      }
    };
  }, [
    trackTitle,
    index,
    tracks,
    play,
    pause,
    seekBy,
    goTo,
    imagesHost,
    storyId,
    storyTitle,
    authorName,
  ]);

  const onLoaded = () => {
    const a = audio.current!;
    if (Number.isFinite(a.duration)) setDuration(a.duration);
    if (pendingSeek.current) a.currentTime = pendingSeek.current;
    pendingSeek.current = null;
  };
  const onEnded = () => {
    save('now');
    if (trackId !== null) heard.set(trackId, 0);
    const next = afterEnd(tracks, index!, deadline.current);
    if (deadline.current === 'end') {
      deadline.current = null;
      setSleep('off');
    }
    if (next === null) {
      wantPlay.current = false;
      setStatus('paused');
    } else goTo(next);
  };

  const chooseSpeed = (e: ChangeEvent<HTMLSelectElement>) => {
    const value = Number(e.currentTarget.value);
    setSpeed(value);
    storeSpeed(value);
  };
  const chooseSleep = (e: ChangeEvent<HTMLSelectElement>) => {
    const raw = e.currentTarget.value;
    const choice = (raw === 'off' || raw === 'end' ? raw : Number(raw)) as SleepChoice;
    setSleep(choice);
    deadline.current = sleepDeadline(choice, Date.now());
  };
  const chooseQualityNow = (value: AudioQuality) => {
    const a = audio.current;
    if (a && trackId !== null && a.src) heard.set(trackId, a.currentTime);
    wantPlay.current = status !== 'paused';
    storeQuality(value);
    setQuality(value);
  };

  const aacPlays = canPlay(QUALITY_TYPES.standard);
  const playing = status === 'playing';
  const back = `/login?redirect=${encodeURIComponent(detailsPath(props.storyId))}`;

  return (
    <dialog
      ref={dialog}
      className={styles.player}
      aria-labelledby={`${id}-title`}
      onCancel={(e) => {
        e.preventDefault();
        onHide();
      }}
    >
      <div className={styles.head}>
        <h2 id={`${id}-title`} className={styles.title}>
          {t('audio.title')}
        </h2>
        <button type="button" className={styles.iconButton} onClick={onHide}>
          <span aria-hidden="true" className={styles.hideGlyph}>
            ⌄
          </span>
          <span className="visually-hidden">{t('audio.hide')}</span>
        </button>
      </div>
      {/* The element itself stays out of sight and out of the tab order: the buttons drive it. */}
      <audio
        ref={audio}
        preload="metadata"
        onLoadedMetadata={onLoaded}
        onPlaying={() => setStatus('playing')}
        onWaiting={() => setStatus('loading')}
        onPause={() => {
          setStatus('paused');
          save('now');
        }}
        onEnded={onEnded}
        onError={() => {
          if (audio.current?.src) {
            setFailed(true);
            setStatus('paused');
          }
        }}
      />

      {track ? (
        <section className={styles.now} aria-labelledby={`${id}-track`}>
          <p className={styles.trackTitle} id={`${id}-track`} lang={props.lang}>
            {track.title}
          </p>
          <p className={styles.state} role="status">
            {failed ? t('audio.failed') : status === 'loading' ? t('audio.loading') : ''}
          </p>
          <input
            type="range"
            className={styles.seek}
            min={0}
            max={Math.max(1, Math.floor(duration))}
            step={1}
            value={Math.floor(position)}
            aria-label={t('audio.position')}
            aria-valuetext={t('audio.positionOf', {
              at: clock(position),
              total: clock(duration),
            })}
            onChange={(e) => {
              const a = audio.current;
              if (!a) return;
              a.currentTime = Number(e.currentTarget.value);
              setPosition(a.currentTime);
            }}
          />
          <p className={styles.times} aria-hidden="true">
            <span data-audio-position>{clock(position)}</span>
            <span>{clock(duration)}</span>
          </p>
          <div className={styles.controls}>
            <button
              type="button"
              className={styles.iconButton}
              onClick={() => goTo(previousTrack(tracks, index!))}
              disabled={previousTrack(tracks, index!) === null}
              aria-label={t('audio.previous')}
            >
              <span aria-hidden="true">⏮</span>
            </button>
            <button
              type="button"
              className={styles.iconButton}
              onClick={() => seekBy(-SEEK_STEP)}
              aria-label={t('audio.back', { n: SEEK_STEP })}
            >
              <span aria-hidden="true">↺5</span>
            </button>
            <button
              type="button"
              className={styles.playButton}
              onClick={playing ? pause : play}
              aria-label={playing ? t('audio.pause') : t('audio.play')}
              aria-busy={status === 'loading' && wantPlay.current}
              data-state={status}
            >
              <span aria-hidden="true">
                {status === 'loading' && wantPlay.current ? '…' : playing ? '❚❚' : '▶'}
              </span>
            </button>
            <button
              type="button"
              className={styles.iconButton}
              onClick={() => seekBy(SEEK_STEP)}
              aria-label={t('audio.forward', { n: SEEK_STEP })}
            >
              <span aria-hidden="true">5↻</span>
            </button>
            <button
              type="button"
              className={styles.iconButton}
              onClick={() => goTo(nextTrack(tracks, index!))}
              disabled={nextTrack(tracks, index!) === null}
              aria-label={t('audio.next')}
            >
              <span aria-hidden="true">⏭</span>
            </button>
          </div>

          <div className={styles.options}>
            <label className={styles.option}>
              <span>{t('audio.speed')}</span>
              <select value={String(speed)} onChange={chooseSpeed}>
                {SPEEDS.map((s) => (
                  <option key={s} value={String(s)}>
                    {`${s}×`}
                  </option>
                ))}
              </select>
            </label>
            <label className={styles.option}>
              <span>{t('audio.sleep')}</span>
              <select value={String(sleep)} onChange={chooseSleep}>
                {SLEEP_CHOICES.map((c) => (
                  <option key={c} value={String(c)}>
                    {c === 'off'
                      ? t('audio.sleepOff')
                      : c === 'end'
                        ? t('audio.sleepEnd')
                        : t('audio.sleepMinutes', { n: c })}
                  </option>
                ))}
              </select>
            </label>
          </div>

          <fieldset className={styles.quality}>
            <legend>{t('audio.quality')}</legend>
            {(['standard', 'saver'] as const).map((q) => (
              <label key={q} className={styles.qualityChoice}>
                <input
                  type="radio"
                  name={`${id}-quality`}
                  value={q}
                  checked={quality === q}
                  disabled={q === 'standard' && !aacPlays}
                  onChange={() => chooseQualityNow(q)}
                />
                <span>
                  {t(q === 'standard' ? 'audio.standard' : 'audio.saver', {
                    mb: megabytes(track.sizes[q]),
                  })}
                </span>
              </label>
            ))}
            <p className={styles.hint}>{t('audio.qualityHint')}</p>
          </fieldset>
        </section>
      ) : (
        <p className={styles.hint}>{t('audio.noneOpen')}</p>
      )}

      {(tracks.length > 1 || track === null) && (
        <section aria-labelledby={`${id}-list`}>
          <h3 className={styles.listTitle} id={`${id}-list`}>
            {t('audio.tracks')}
          </h3>
          <ol className={styles.list}>
            {tracks.map((tr, i) => (
              <li key={tr.trackId}>
                <button
                  type="button"
                  className={styles.listItem}
                  aria-current={i === index ? 'true' : undefined}
                  aria-expanded={playable(tr) ? undefined : locked === i}
                  onClick={() => (playable(tr) ? goTo(i) : setLocked(i))}
                >
                  <span lang={props.lang}>{tr.title}</span>
                  <span className={styles.listMeta}>
                    {playable(tr) ? clock(tr.durationSeconds) : `🔒 ${t('audio.membersOnly')}`}
                  </span>
                </button>
                {locked === i && (
                  <section
                    ref={(el) => el?.scrollIntoView({ block: 'nearest' })}
                    className={styles.locked}
                    aria-live="polite"
                  >
                    <p>{t('audio.lockedText', { title: tr.title })}</p>
                    {loggedIn ? (
                      <SubscriptionWall storyId={props.storyId} author={props.author} episode />
                    ) : (
                      <p className={styles.lockedActions}>
                        <Link to={back}>{t('wall.login')}</Link>
                        <Link
                          to={`/signup?redirect=${encodeURIComponent(detailsPath(props.storyId))}`}
                        >
                          {t('wall.join')}
                        </Link>
                      </p>
                    )}
                  </section>
                )}
              </li>
            ))}
          </ol>
        </section>
      )}

      <div className={styles.foot}>
        <button
          type="button"
          className={styles.stop}
          onClick={() => {
            pause();
            onStop();
          }}
        >
          {t('audio.stop')}
        </button>
      </div>
    </dialog>
  );
}
