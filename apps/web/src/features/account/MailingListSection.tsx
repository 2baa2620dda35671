import { useId } from 'react';
import { useMutation } from '@tanstack/react-query';
import { isApiError } from '../../api/client.ts';
import { requestMailConfirmation, useMailStatus } from '../../api/membership.ts';
import { useMe } from '../../api/queries.ts';
import { SkeletonLines } from '../../components/Skeleton.tsx';
import { useI18n } from '../../i18n/index.tsx';
import ui from '../../components/ui.module.css';
import page from '../../components/page.module.css';
import own from './account.module.css';

/**
 * The mailing list: whether the account's address is on it, and a button that asks for a
 * confirmation e-mail (the link in it carries the signed token, so joining needs the inbox).
 */
export function MailingListSection() {
  const { t } = useI18n();
  const id = useId();
  const me = useMe(true);
  const status = useMailStatus(true);
  const mutation = useMutation({
    mutationFn: (email: string) => requestMailConfirmation(email),
  });

  const email = me.data?.email;
  // Without a status (an old server, a failed call) the button is still offered.
  const subscribed = status.data?.subscribed === true;
  const failure = mutation.error
    ? isApiError(mutation.error) && mutation.error.status === 0
      ? t('common.offline')
      : isApiError(mutation.error) && mutation.error.message
        ? mutation.error.message
        : t('common.error')
    : null;

  return (
    <section className={page.panel} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={page.panelTitle}>
        {t('mailing.title')}
      </h2>
      <p className={ui.hint}>{t('mailing.help')}</p>
      {status.isPending || me.isPending ? (
        <SkeletonLines lines={1} label={t('common.loading')} />
      ) : (
        <>
          {status.isSuccess && (
            <p className={own.mailState}>
              {subscribed
                ? t('mailing.on', { email: status.data.email || email || '' })
                : t('mailing.off')}
            </p>
          )}
          {!subscribed && email && !mutation.isSuccess && (
            <div>
              <button
                type="button"
                className={ui.buttonSecondary}
                disabled={mutation.isPending}
                onClick={() => mutation.mutate(email)}
              >
                {t(mutation.isPending ? 'mailing.sending' : 'mailing.join')}
              </button>
            </div>
          )}
        </>
      )}
      <p role="status" className={own.done}>
        {mutation.isSuccess && email && t('mailing.sent', { email })}
      </p>
      {failure && (
        <p className={ui.fieldError} role="alert">
          {failure}
        </p>
      )}
    </section>
  );
}
