import { useEffect, useState, type ComponentType } from 'react';
import type { AudioBook } from '@kathamala/domain';
import { useI18n } from '../../i18n/index.tsx';
import type { AudioPlayerProps } from './AudioPlayer.tsx';
import { stopAudio } from './stopAudio.ts';
import styles from './AudioButton.module.css';

type Mode = 'off' | 'loading' | 'open' | 'hidden';

// The player's code, once fetched: the reader's first load carries only this button.
let Player: ComponentType<AudioPlayerProps> | null = null;

/**
 * The Audio book button of the story page (SPEC.md 2), shown only when the story has tracks.
 * Pressing it loads the player; hidden, the player keeps playing and the button brings it back.
 */
export function AudioButton(
  props: Omit<AudioPlayerProps, 'open' | 'onHide' | 'onStop' | 'tracks'> & { tracks: AudioBook[] },
) {
  const { t } = useI18n();
  const [mode, setMode] = useState<Mode>('off');
  const [failed, setFailed] = useState(false);

  // Leaving the story stops its audio (SPEC.md 4).
  useEffect(() => () => stopAudio(), []);

  if (props.tracks.length === 0) return null;

  const press = () => {
    if (mode === 'hidden') return setMode('open');
    if (mode !== 'off') return;
    if (Player) return setMode('open');
    setMode('loading');
    setFailed(false);
    import('./AudioPlayer.tsx').then(
      (module) => {
        Player = module.default;
        setMode('open');
      },
      () => {
        setFailed(true);
        setMode('off');
      },
    );
  };

  return (
    <>
      <button
        type="button"
        className={styles.audioButton}
        onClick={press}
        aria-haspopup="dialog"
        aria-busy={mode === 'loading'}
        data-playing={mode === 'hidden' || undefined}
      >
        <span aria-hidden="true">🎧</span>
        {mode === 'hidden' ? t('audio.nowPlaying') : t('audio.button')}
      </button>
      {failed && (
        <span role="alert" className={styles.failed}>
          {t('audio.loadFailed')}
        </span>
      )}
      {Player && (mode === 'open' || mode === 'hidden') && (
        <Player
          {...props}
          open={mode === 'open'}
          onHide={() => setMode('hidden')}
          onStop={() => setMode('off')}
        />
      )}
    </>
  );
}
