import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { detailsPath } from '@kathamala/domain';
import { useI18n } from '../../i18n/index.tsx';
import ui from '../../components/ui.module.css';
import styles from './GuardNotice.module.css';

/** The navigation state the anti-copy guard leaves a story with: where the reader was. */
export interface GuardLeft {
  guardLeft: { from: string };
}

/** The state to navigate home with when the guard closes a story's part. */
export const guardLeftState = (storyId: number, partNumber: number): GuardLeft => ({
  guardLeft: { from: detailsPath(storyId, partNumber) },
});

const isGuardLeft = (state: unknown): state is GuardLeft =>
  typeof (state as GuardLeft | null)?.guardLeft?.from === 'string';

/**
 * On the home page after the anti-copy guard closed a story (SPEC.md 2): why the reader is here
 * and the way back, once the window is large again. It takes the focus, so a screen reader
 * says it too.
 */
export function GuardNotice() {
  const { t } = useI18n();
  const { state } = useLocation();
  const [closed, setClosed] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const from = isGuardLeft(state) ? state.guardLeft.from : null;

  useEffect(() => {
    if (from) box.current?.focus();
  }, [from]);

  if (!from || closed) return null;
  return (
    <div
      ref={box}
      className={`${ui.notice} ${styles.notice}`}
      role="status"
      tabIndex={-1}
      data-testid="guard-notice"
    >
      <p>{t('guard.left')}</p>
      <p>
        <Link to={from}>{t('guard.back')}</Link>{' '}
        <button type="button" className={ui.buttonQuiet} onClick={() => setClosed(true)}>
          {t('guard.close')}
        </button>
      </p>
    </div>
  );
}
