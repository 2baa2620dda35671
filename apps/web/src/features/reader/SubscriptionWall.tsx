import {
  useEffect,
  useId,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  FEE_RUPEES_PER_MONTH,
  MEMBERSHIP,
  normalizeMobile,
  PRODUCT_APP_ID,
  RELOAD_AFTER_SUBSCRIBE_MS,
  SHORT_CODES,
} from '@kathamala/domain';
import { requestMemberCode, verifyMemberCode } from '../../api/membership.ts';
import { refreshToken } from '../../api/queries.ts';
import { useI18n } from '../../i18n/index.tsx';
import { storeToken } from '../auth/session.ts';
import { carrierHint, codeDigits, failureDetail, RETRY_MINUTES, unbroken } from './joinRules.ts';
import ui from '../../components/ui.module.css';
import styles from './reader.module.css';
import own from './membership.module.css';

type Step =
  | { name: 'mobile' }
  | { name: 'code'; mobile: string; masked: string; refId: string; minutes: number }
  | { name: 'done' };

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The subscription wall for a logged-in reader without a membership (SPEC.md 2, 5, 8, 9): the
 * fee, then step 1 the mobile number (the carrier and its short code shown as soon as the prefix
 * says), step 2 the code from the SMS. Success refreshes the token and reloads the page after
 * RELOAD_AFTER_SUBSCRIBE_MS so the episode opens. Joining by SMS with the author's keyword is
 * offered too; a number joined that way is linked to the account by the same two steps.
 * Membership is per app (the author's own, or Kathamala's for authors without one): the wall
 * says whose stories it opens, and the join is counted for this story (authors' statistics).
 */
export function SubscriptionWall(props: {
  storyId: number;
  author: { name: string; keyword: string; appId: string };
  episode?: boolean;
}) {
  const { appId } = props.author;
  const { t } = useI18n();
  const id = useId();
  const queryClient = useQueryClient();
  const [step, setStep] = useState<Step>({ name: 'mobile' });
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const mobileRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const doneRef = useRef<HTMLParagraphElement>(null);
  const moved = useRef(false);

  // Keyboard and screen-reader users land on the field of the new step (not on first render).
  useEffect(() => {
    if (!moved.current) return;
    if (step.name === 'mobile') mobileRef.current?.focus();
    else if (step.name === 'code') codeRef.current?.focus();
    else doneRef.current?.focus();
  }, [step.name]);

  const go = (next: Step) => {
    moved.current = true;
    setStep(next);
  };

  // A reason about the number or the code (mistyped, expired, used) is said at that field: only
  // the carrier or the server failing gets SPEC.md 8's "unable to subscribe" sentence.
  const fail = (error: unknown, field: RefObject<HTMLInputElement | null>) => {
    const detail = failureDetail(error);
    if (detail.kind !== 'field') return setFailure(error);
    setFieldError(detail.message);
    field.current?.focus();
  };

  const sendCode = async (number: string, again: boolean) => {
    setBusy(true);
    setFailure(null);
    setNote(null);
    try {
      const answer = await requestMemberCode({ mobile: number, appId, storyId: props.storyId });
      setCode('');
      setFieldError(null);
      go({
        name: 'code',
        mobile: number,
        masked: answer.mobile,
        refId: answer.refId,
        minutes: answer.expiresInMinutes,
      });
      if (again) setNote(t('sub.resent', { mobile: unbroken(answer.mobile) }));
    } catch (error) {
      fail(error, again ? codeRef : mobileRef);
    } finally {
      setBusy(false);
    }
  };

  const onMobile = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const number = normalizeMobile(mobile);
    if (!number) {
      setFieldError(t('sub.mobileInvalid'));
      mobileRef.current?.focus();
      return;
    }
    setFieldError(null);
    void sendCode(number, false);
  };

  const onCode = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy || step.name !== 'code') return;
    const mfaCode = codeDigits(code);
    // SPEC.md 5: an empty code is refused here, with no request.
    if (!mfaCode) {
      setFieldError(t('sub.empty'));
      setFailure(null);
      setNote(null);
      codeRef.current?.focus();
      return;
    }
    setFieldError(null);
    setFailure(null);
    setNote(null);
    setBusy(true);
    try {
      await verifyMemberCode({ mfaCode, appId, refId: step.refId });
    } catch (error) {
      fail(error, codeRef);
      setBusy(false);
      return;
    }
    go({ name: 'done' });
    void queryClient.invalidateQueries({ queryKey: [apiPaths.memberDetails()] });
    // SPEC.md 4: the token is refreshed and the page reloads after 2 s, so the episode opens.
    await Promise.all([
      refreshToken().then(
        (fresh) => storeToken(fresh.accesstoken),
        () => undefined,
      ),
      wait(RELOAD_AFTER_SUBSCRIBE_MS),
    ]);
    window.location.reload();
  };

  const keyword = <strong className={styles.keyword}>{props.author.keyword}</strong>;
  const fill = (text: string, shortCode: string): ReactNode => {
    const [before, after] = text.replace('{code}', shortCode).split('{keyword}');
    return (
      <>
        {before}
        {keyword}
        {after}
      </>
    );
  };

  const hint = step.name === 'mobile' ? carrierHint(mobile) : null;
  const detail = failure ? failureDetail(failure) : null;
  const titleId = `${id}-title`;

  return (
    <section className={`${styles.wall} ${styles.subscriptionWall}`} aria-labelledby={titleId}>
      <h2 id={titleId} className={styles.wallTitle}>
        <span aria-hidden="true" className={styles.wallIcon}>
          ★
        </span>{' '}
        {t(props.episode ? 'sub.titleEpisode' : 'sub.title')}
      </h2>
      <p className={own.fee}>
        <span className={own.feeAmount}>
          {t('membership.feeValue', { fee: FEE_RUPEES_PER_MONTH })}
        </span>
        <span>{t('sub.fee', { fee: FEE_RUPEES_PER_MONTH })}</span>
      </p>
      <p className={own.opens}>
        {appId === PRODUCT_APP_ID
          ? t('sub.opensProduct')
          : t('sub.opensAuthor', { name: props.author.name })}
      </p>

      {step.name === 'mobile' && (
        <form
          method="post"
          className={own.step}
          onSubmit={onMobile}
          noValidate
          aria-busy={busy || undefined}
        >
          <p className={own.stepLabel}>{t('sub.step1')}</p>
          <div className={ui.field}>
            <label className={ui.label} htmlFor={`${id}-mobile`}>
              {t('sub.mobileLabel')}
            </label>
            <span className={ui.hint} id={`${id}-mobile-hint`}>
              {t('sub.mobileHelp')}
            </span>
            <div className={styles.codeRow}>
              <input
                ref={mobileRef}
                id={`${id}-mobile`}
                name="mobile"
                type="tel"
                inputMode="numeric"
                autoComplete="tel"
                placeholder="07X XXX XXXX"
                maxLength={20}
                className={`${ui.input} ${own.number}`}
                value={mobile}
                onChange={(e) => {
                  setMobile(e.target.value);
                  if (fieldError) setFieldError(null);
                }}
                aria-invalid={fieldError ? true : undefined}
                aria-describedby={`${id}-mobile-hint ${id}-carrier ${id}-field`}
              />
              <button type="submit" className={ui.button} disabled={busy}>
                {t(busy ? 'sub.sending' : 'sub.sendCode')}
              </button>
            </div>
            <p id={`${id}-carrier`} className={own.carrier} aria-live="polite">
              {hint &&
                t('sub.carrier', { carrier: t(`carrier.${hint.carrier}`), code: hint.shortCode })}
            </p>
          </div>
          <FieldError id={`${id}-field`} text={fieldError} />
        </form>
      )}

      {step.name === 'code' && (
        <form
          method="post"
          className={own.step}
          onSubmit={(e) => void onCode(e)}
          noValidate
          aria-busy={busy || undefined}
        >
          <p className={own.stepLabel}>{t('sub.step2')}</p>
          <p>
            {t('sub.codeSent', {
              mobile: unbroken(step.masked),
              minutes: step.minutes,
              count: step.minutes,
            })}
          </p>
          <div className={ui.field}>
            <label className={ui.label} htmlFor={`${id}-code`}>
              {t('sub.codeLabel')}
            </label>
            <span className={ui.hint} id={`${id}-code-hint`}>
              {t('sub.codeHelp')}
            </span>
            <div className={styles.codeRow}>
              <input
                ref={codeRef}
                id={`${id}-code`}
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={MEMBERSHIP.codeDigits + 2}
                className={`${ui.input} ${own.code}`}
                value={code}
                onChange={(e) => {
                  setCode(e.target.value);
                  if (fieldError) setFieldError(null);
                }}
                aria-invalid={fieldError ? true : undefined}
                aria-describedby={`${id}-code-hint ${id}-field`}
              />
              <button type="submit" className={ui.button} disabled={busy}>
                {t(busy ? 'sub.verifying' : 'sub.submit')}
              </button>
            </div>
          </div>
          <FieldError id={`${id}-field`} text={fieldError} />
          <div className={own.stepActions}>
            <button
              type="button"
              className={ui.buttonQuiet}
              disabled={busy}
              onClick={() => {
                setFailure(null);
                setNote(null);
                setFieldError(null);
                go({ name: 'mobile' });
              }}
            >
              {t('sub.changeNumber')}
            </button>
            <button
              type="button"
              className={ui.buttonQuiet}
              disabled={busy}
              onClick={() => void sendCode(step.mobile, true)}
            >
              {t('sub.resend')}
            </button>
          </div>
        </form>
      )}

      {step.name === 'done' && (
        <div className={ui.noticeSuccess} role="status">
          <p ref={doneRef} tabIndex={-1} className={own.success}>
            {t('sub.success')}
          </p>
          <p className={own.reloading}>{t('sub.reloading')}</p>
        </div>
      )}

      <div role="alert" className={own.live}>
        {detail && (
          <div className={ui.noticeError}>
            <p className={own.failure}>{t('sub.failed')}</p>
            {detail.kind === 'offline' && <p>{t('common.offline')}</p>}
            {detail.kind === 'tooMany' && (
              <p>
                {detail.message ||
                  t('sub.tooMany', { minutes: RETRY_MINUTES, count: RETRY_MINUTES })}
              </p>
            )}
            {detail.kind === 'server' && <p>{detail.message}</p>}
          </div>
        )}
      </div>
      <p role="status" className={own.note}>
        {note}
      </p>

      {step.name !== 'done' && (
        <div className={own.bySms}>
          <h3 className={styles.wallSubtitle}>{t('sub.howTitle')}</h3>
          <ul className={styles.smsSteps}>
            <li>{fill(t('sub.howMain'), SHORT_CODES.default)}</li>
            <li>{fill(t('sub.howMobitel'), SHORT_CODES.mobitel)}</li>
          </ul>
          <p className={ui.hint}>{t('sub.linkAfterSms')}</p>
        </div>
      )}
    </section>
  );
}

function FieldError(props: { id: string; text: string | null }) {
  return (
    <p id={props.id} className={ui.fieldError} role={props.text ? 'alert' : undefined}>
      {props.text}
    </p>
  );
}
