import { useState } from 'react';
import { useI18n } from '../../i18n/index.tsx';
import { usePush } from '../push/usePush.ts';
import { dismissPushPrompt, pushPromptDismissed } from './pushPrompt.ts';
import styles from '../../components/NotificationDrawer.module.css';

/**
 * A small offer at the top of the drawer to get new episodes as device notifications. Shown only
 * where push works, is off, was never refused, and the reader has not answered it before.
 */
export function PushPrompt() {
  const { t } = useI18n();
  const push = usePush();
  const [hidden, setHidden] = useState(pushPromptDismissed);
  if (hidden || push.state !== 'off') return null;
  if (typeof Notification !== 'undefined' && Notification.permission !== 'default') return null;
  const done = () => {
    dismissPushPrompt();
    setHidden(true);
  };
  return (
    <div className={styles.prompt}>
      <p>{t('push.prompt')}</p>
      <div className={styles.promptActions}>
        <button
          type="button"
          className={styles.promptYes}
          disabled={push.busy}
          onClick={() => void push.turnOn().then(done)}
        >
          {t('push.turnOn')}
        </button>
        <button type="button" className={styles.promptNo} onClick={done}>
          {t('push.notNow')}
        </button>
      </div>
    </div>
  );
}
