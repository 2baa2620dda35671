import { useId, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  FEE_RUPEES_PER_MONTH,
  PRODUCT_APP_ID,
  SHORT_CODES,
  type Membership,
} from '@kathamala/domain';
import { isApiError } from '../../api/client.ts';
import { leaveMembership, membershipsKey, useMemberships } from '../../api/membership.ts';
import { ErrorNotice } from '../../components/Notice.tsx';
import { SkeletonLines } from '../../components/Skeleton.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { textLang } from '../stories/lang.ts';
import { unbroken } from '../reader/joinRules.ts';
import { formatFullDate } from './format.ts';
import ui from '../../components/ui.module.css';
import page from '../../components/page.module.css';
import own from './account.module.css';

/**
 * The reader's memberships (GET member/details): app, whose stories it opens, masked mobile,
 * since, status, next charge and fee, each with Leave behind a confirm step. Leaving tells the
 * carrier (UNREG) and the list follows the server's answer; an ended one says how to join it
 * again with its own keyword (membership is per app: SPEC.md 3).
 */
export function MembershipsSection() {
  const { t } = useI18n();
  const id = useId();
  const query = useMemberships(true);
  const [left, setLeft] = useState<string | null>(null);

  return (
    <section className={page.panel} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={page.panelTitle}>
        {t('membership.title')}
      </h2>
      {query.isPending ? (
        <SkeletonLines lines={3} label={t('common.loading')} />
      ) : query.isError ? (
        <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.memberships.length === 0 ? (
        <p className={ui.hint}>{t('membership.empty')}</p>
      ) : (
        <ul className={own.memberships}>
          {query.data.memberships.map((m) => (
            <MembershipItem key={m.appId} membership={m} onLeft={setLeft} />
          ))}
        </ul>
      )}
      <p role="status" className={own.done}>
        {left && t('membership.left', { name: left })}
      </p>
    </section>
  );
}

function MembershipItem(props: { membership: Membership; onLeft: (name: string) => void }) {
  const { t, lang } = useI18n();
  const id = useId();
  const m = props.membership;
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const leaveRef = useRef<HTMLButtonElement>(null);
  const mutation = useMutation({
    mutationFn: () => leaveMembership(m.appId),
    onSuccess: async () => {
      // Parts read under the membership must be asked for again: the wall comes back.
      client.removeQueries({
        predicate: (q) =>
          typeof q.queryKey[0] === 'string' && /\/part\/number\//.test(q.queryKey[0]),
      });
      await client.invalidateQueries({ queryKey: membershipsKey() });
      props.onLeft(m.name);
    },
  });
  const fee = m.fee.amount || FEE_RUPEES_PER_MONTH;
  const canLeave = m.status !== 'ended';
  const failure = mutation.error
    ? isApiError(mutation.error) && mutation.error.status === 0
      ? t('common.offline')
      : isApiError(mutation.error) && mutation.error.message
        ? mutation.error.message
        : t('common.error')
    : null;

  return (
    <li
      className={`${own.membership} ${m.status === 'ended' ? own.membershipEnded : ''}`}
      aria-labelledby={`${id}-name`}
    >
      <div className={own.membershipHead}>
        <h3 id={`${id}-name`} className={own.membershipName} lang={textLang(m.name)}>
          {m.name}
        </h3>
        <span className={`${own.status} ${own[m.status]}`}>{t(`membership.${m.status}`)}</span>
      </div>
      <p className={own.opens}>
        {m.appId === PRODUCT_APP_ID
          ? t('membership.opensProduct')
          : t('membership.opensAuthor', { name: m.name })}
      </p>
      <dl className={page.facts}>
        <dt>{t('membership.mobile')}</dt>
        <dd className={own.mobile}>{m.mobile}</dd>
        <dt>{t('membership.since')}</dt>
        <dd>{formatFullDate(m.since, lang)}</dd>
        <dt>{t('membership.nextCharge')}</dt>
        <dd>{m.nextCharge ? formatFullDate(m.nextCharge, lang) : t('membership.noCharge')}</dd>
        <dt>{t('membership.fee')}</dt>
        <dd>{t('membership.feeValue', { fee })}</dd>
      </dl>
      <p className={ui.hint}>{t('membership.keyword', { keyword: m.keyword })}</p>
      {m.status === 'ended' && (
        <p className={ui.hint}>
          {t('membership.joinAgain', {
            keyword: m.keyword,
            code: SHORT_CODES.default,
            mobitelCode: SHORT_CODES.mobitel,
          })}
        </p>
      )}
      {canLeave && !confirming && (
        <div>
          <button
            ref={leaveRef}
            type="button"
            className={ui.buttonSecondary}
            aria-label={t('membership.leaveLabel', { name: m.name })}
            onClick={() => {
              mutation.reset();
              setConfirming(true);
            }}
          >
            {t('membership.leave')}
          </button>
        </div>
      )}
      {canLeave && confirming && (
        <div className={own.confirm} role="group" aria-labelledby={`${id}-confirm`}>
          <p id={`${id}-confirm`}>
            {t('membership.leaveConfirm', { name: m.name, mobile: unbroken(m.mobile), fee })}
          </p>
          <div className={own.confirmActions}>
            <button
              type="button"
              className={own.danger}
              disabled={mutation.isPending}
              onClick={() => mutation.mutate()}
            >
              {t('membership.leaveYes')}
            </button>
            <button
              type="button"
              className={ui.buttonSecondary}
              disabled={mutation.isPending}
              // The step opens on the choice that changes nothing (a confirm of a loss).
              autoFocus
              onClick={() => {
                setConfirming(false);
                // Back to the Leave button once it is rendered again.
                requestAnimationFrame(() => leaveRef.current?.focus());
              }}
            >
              {t('membership.leaveNo')}
            </button>
          </div>
          {failure && (
            <p className={ui.fieldError} role="alert">
              {failure}
            </p>
          )}
        </div>
      )}
    </li>
  );
}
