import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { apiPaths, AUTHORING } from '@kathamala/domain';
import { registerAuthor } from '../../api/authoring.ts';
import { isApiError } from '../../api/client.ts';
import { refreshToken } from '../../api/queries.ts';
import { useI18n } from '../../i18n/index.tsx';
import { peekClaims, storeToken } from '../auth/session.ts';
import ui from '../../components/ui.module.css';
import page from '../../components/page.module.css';
import styles from './publish.module.css';

/** Offered to a logged-in reader who is not an author yet: a pen name and a few words. */
export function RegisterAuthor(props: { defaultName: string }) {
  const { t } = useI18n();
  const id = useId();
  const queryClient = useQueryClient();
  const [name, setName] = useState(props.defaultName);
  const [bio, setBio] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const trimmed = name.trim();
    const length = [...trimmed].length;
    setFailure(null);
    if (length < AUTHORING.authorNameMinChars || length > AUTHORING.authorNameMaxChars) {
      setNameError(
        t('publish.authorNameRule', {
          min: AUTHORING.authorNameMinChars,
          max: AUTHORING.authorNameMaxChars,
        }),
      );
      document.getElementById(`${id}-name`)?.focus();
      return;
    }
    setNameError(null);
    setBusy(true);
    try {
      const answer = await registerAuthor({ name: trimmed, bio: bio.trim() });
      // The new token says `author: true`: the menu and this page change at once.
      storeToken(answer.accesstoken);
      void queryClient.invalidateQueries({ queryKey: [apiPaths.me()] });
    } catch (error) {
      // Already an author (registered in another tab or device): a fresh token says so.
      if (isApiError(error) && error.status === 409) {
        const fresh = await refreshToken().catch(() => null);
        if (fresh && peekClaims(fresh.accesstoken).author === true) {
          storeToken(fresh.accesstoken);
          return;
        }
      }
      setBusy(false);
      const message =
        isApiError(error) && error.status === 0
          ? t('publish.offlineAction')
          : isApiError(error) && error.message
            ? error.message
            : t('common.error');
      if (isApiError(error) && error.status === 409 && /name/i.test(message)) setNameError(message);
      else setFailure(message);
    }
  };

  return (
    <div className={page.narrow}>
      <div className={page.listHead}>
        <h1 className={page.heading}>{t('publish.becomeAuthor')}</h1>
        <p className={page.lead}>{t('publish.becomeAuthorLead')}</p>
      </div>
      <form
        method="post"
        className={page.form}
        onSubmit={onSubmit}
        noValidate
        aria-busy={busy || undefined}
      >
        <div className={ui.field}>
          <label className={ui.label} htmlFor={`${id}-name`}>
            {t('publish.authorName')}
          </label>
          <input
            id={`${id}-name`}
            className={ui.input}
            value={name}
            maxLength={AUTHORING.authorNameMaxChars}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={`${id}-name-hint${nameError ? ` ${id}-name-error` : ''}`}
            onChange={(e) => setName(e.target.value)}
          />
          <span id={`${id}-name-hint`} className={ui.hint}>
            {t('publish.authorNameHint', {
              min: AUTHORING.authorNameMinChars,
              max: AUTHORING.authorNameMaxChars,
            })}
          </span>
          {nameError && (
            <span id={`${id}-name-error`} className={ui.fieldError}>
              {nameError}
            </span>
          )}
        </div>
        <div className={ui.field}>
          <label className={ui.label} htmlFor={`${id}-bio`}>
            {t('publish.bio')}
          </label>
          <textarea
            id={`${id}-bio`}
            className={`${ui.input} ${styles.textarea}`}
            rows={4}
            value={bio}
            maxLength={AUTHORING.bioChars}
            aria-describedby={`${id}-bio-hint`}
            onChange={(e) => setBio(e.target.value)}
          />
          <span id={`${id}-bio-hint`} className={ui.hint}>
            {t('publish.bioHint')}
          </span>
        </div>
        {failure && (
          <p className={ui.noticeError} role="alert">
            {failure}
          </p>
        )}
        <button type="submit" className={ui.button} disabled={busy}>
          {busy ? t('auth.working') : t('publish.registerSubmit')}
        </button>
      </form>
    </div>
  );
}
