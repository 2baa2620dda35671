import { useId, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest, isApiError } from '../../api/client.ts';
import { COMMUNITY, communityPaths, LIMITS, type CommunityProfile } from '@kathamala/domain';
import { changeUsername, refreshToken } from '../../api/queries.ts';
import { storeToken } from '../auth/session.ts';
import ui from '../../components/ui.module.css';
import { useI18n } from '../../i18n/index.tsx';
import { saveProfile, uploadImage } from './api.ts';
import { Avatar } from './Avatar.tsx';
import { pickImages } from './rules.ts';
import styles from './community.module.css';
import { Feedback } from './Feedback.tsx';

/** After a rename: the token carries the name, so a fresh one is stored. */
const renewToken = async () => {
  const fresh = await refreshToken().catch(() => null);
  if (fresh) storeToken(fresh.accesstoken);
};

/** One's own profile: name, a few lines about oneself, and a picture (uploaded as chosen). */
export function ProfileEditor(props: { profile: CommunityProfile; onDone: () => void }) {
  const { t } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const { profile } = props;
  const [name, setName] = useState(profile.username);
  const [bio, setBio] = useState(profile.bio ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [note, setNote] = useState('');
  const failed = (e: unknown) =>
    setError(isApiError(e) && e.message ? e.message : t('common.error'));
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [communityPaths.profile(profile.userId)] }),
      client.invalidateQueries({ queryKey: [communityPaths.me()] }),
    ]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    const renamed = name.trim() !== profile.username;
    // The name is the account's username: its own call, then a token that carries it.
    (renamed ? changeUsername(name.trim()).then(renewToken) : Promise.resolve())
      .then(() => saveProfile({ bio }))
      .then(refresh)
      .then(() => {
        setNote(t('profile.saved'));
        props.onDone();
      }, failed)
      .finally(() => setBusy(false));
  };

  const choose = (files: FileList | null) => {
    const { taken, refused } = pickImages(0, Array.from(files ?? []), 1);
    const first = refused[0];
    if (first && first.kind !== 'tooMany') {
      setError(
        first.kind === 'notImage'
          ? t('composer.notImage', { name: first.name })
          : t('composer.tooBig', { name: first.name, mb: first.mb }),
      );
      return;
    }
    const file = taken[0];
    if (!file) return;
    setBusy(true);
    setError('');
    uploadImage('profile', profile.userId, file, file.name)
      .then(refresh, failed)
      .finally(() => setBusy(false));
  };

  const removeAvatar = () => {
    setBusy(true);
    apiRequest(communityPaths.image('profile', profile.userId), { method: 'DELETE' })
      .then(refresh, failed)
      .finally(() => setBusy(false));
  };

  return (
    <form method="post" className={styles.composer} onSubmit={submit} aria-busy={busy || undefined}>
      <h2 className={styles.sharedTitle}>{t('profile.editTitle')}</h2>
      <div className={styles.row}>
        <Avatar name={profile.username} avatar={profile.avatar} described />
        <input
          id={`${id}-avatar`}
          type="file"
          accept="image/jpeg,image/png,image/webp"
          className="visually-hidden"
          onChange={(e) => choose(e.target.files)}
        />
        <label htmlFor={`${id}-avatar`} className={styles.quiet}>
          {t('profile.avatarChange')}
        </label>
        {profile.avatar && (
          <button type="button" className={styles.quiet} onClick={removeAvatar}>
            {t('profile.avatarRemove')}
          </button>
        )}
      </div>
      <label className={ui.field}>
        <span className={ui.label}>{t('profile.name')}</span>
        <input
          className={ui.input}
          value={name}
          maxLength={LIMITS.usernameMaxChars}
          required
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <label className={ui.field}>
        <span className={ui.label}>{t('profile.bio')}</span>
        <textarea
          className={ui.input}
          rows={3}
          value={bio}
          maxLength={COMMUNITY.bioChars}
          onChange={(e) => setBio(e.target.value)}
        />
      </label>
      <Feedback error={error} note={note} />
      <div className={styles.row}>
        <button type="submit" className={ui.button} disabled={busy}>
          {t('profile.save')}
        </button>
        <button type="button" className={ui.buttonSecondary} onClick={props.onDone}>
          {t('profile.cancel')}
        </button>
      </div>
    </form>
  );
}
