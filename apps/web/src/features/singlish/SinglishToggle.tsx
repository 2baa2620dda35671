import { lazy, Suspense, useState, type MouseEvent } from 'react';
import { useI18n } from '../../i18n/index.tsx';
import { useSinglishOn, writeSinglishOn } from './settings.ts';
import type { TypedWord } from './typing.ts';
import styles from './singlish.module.css';

// The key table is only needed when asked for: it stays out of the page's first script.
const SinglishHelp = lazy(() => import('./SinglishHelp.tsx'));

/**
 * The Singlish typing switch (remembered in this browser, shared by every box), a "?" that
 * opens the key table, and, after a word was converted, a button that gives its Latin letters
 * back. `compact` fits inside the search box; `bar` sits under a comment box or in a toolbar.
 */
export function SinglishToggle(props: {
  variant: 'compact' | 'bar';
  undoable: TypedWord | null;
  onUndo: () => void;
}) {
  const { t } = useI18n();
  const on = useSinglishOn();
  const [help, setHelp] = useState(false);
  const compact = props.variant === 'compact';
  const keep = (e: MouseEvent) => e.preventDefault();

  return (
    <span className={compact ? styles.compact : styles.bar}>
      <button
        type="button"
        className={styles.toggle}
        aria-pressed={on}
        aria-label={t('singlish.toggle')}
        title={t('singlish.toggle')}
        // Keep the caret in the text box while the switch is pressed.
        onMouseDown={keep}
        onClick={() => writeSinglishOn(!on)}
      >
        <span aria-hidden="true" lang="si">
          අ
        </span>
        {!compact && <span className={styles.toggleText}>{t('singlish.name')}</span>}
      </button>
      {on && props.undoable && (
        <button
          type="button"
          className={styles.undo}
          onMouseDown={keep}
          onClick={props.onUndo}
          aria-label={t('singlish.undo', { latin: props.undoable.latin })}
          title={t('singlish.undo', { latin: props.undoable.latin })}
        >
          <span aria-hidden="true">↶</span>
          {!compact && <span className={styles.undoLatin}>{props.undoable.latin}</span>}
        </button>
      )}
      {on && (!compact || !props.undoable) && (
        <button
          type="button"
          className={styles.helpButton}
          aria-label={t('singlish.help')}
          title={t('singlish.help')}
          aria-haspopup="dialog"
          onClick={() => setHelp(true)}
        >
          <span aria-hidden="true">?</span>
        </button>
      )}
      {help && (
        <Suspense fallback={null}>
          <SinglishHelp onClose={() => setHelp(false)} />
        </Suspense>
      )}
    </span>
  );
}
