import type { ReactNode } from 'react';
import { isApiError } from '../api/client.ts';
import { useI18n } from '../i18n/index.tsx';
import ui from './ui.module.css';

/** A friendly failure message with a retry button; says so when the network is the cause. */
export function ErrorNotice(props: {
  error?: unknown;
  onRetry?: () => void;
  children?: ReactNode;
}) {
  const { t } = useI18n();
  const offline = isApiError(props.error) && props.error.status === 0;
  return (
    <div className={ui.noticeError} role="alert">
      <p>{props.children ?? t(offline ? 'common.offline' : 'common.error')}</p>
      {props.onRetry && (
        <button type="button" className={ui.buttonSecondary} onClick={props.onRetry}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}

export function InfoNotice(props: { children: ReactNode }) {
  return <div className={ui.notice}>{props.children}</div>;
}
