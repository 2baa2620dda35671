import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import {
  apiPaths,
  communityPaths,
  parsePage,
  ROLES,
  type CommunityProfile,
  type Role,
} from '@kathamala/domain';
import { isApiError } from '../api/client.ts';
import ui from '../components/ui.module.css';
import { ErrorNotice, InfoNotice } from '../components/Notice.tsx';
import { SkeletonLines } from '../components/Skeleton.tsx';
import { formatFullDate } from '../features/account/format.ts';
import { ReportDialog } from '../features/comments/ReportDialog.tsx';
import { flagProfile, setFollowing, setRole, useProfile } from '../features/community/api.ts';
import { Avatar, RoleBadge } from '../features/community/Avatar.tsx';
import { FeedList } from '../features/community/FeedList.tsx';
import { ProfileEditor } from '../features/community/ProfileEditor.tsx';
import { useViewer } from '../features/community/useViewer.ts';
import { textLang } from '../features/stories/lang.ts';
import { useI18n } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import { NotFoundPage } from './NotFoundPage.tsx';
import styles from '../features/community/community.module.css';
import { Feedback } from '../features/community/Feedback.tsx';

/**
 * /profile/{userId}/ (and /community/profile/{userId}): a person in the community, where a
 * mention of them leads: picture, name and role, what they wrote about themselves, counts, since
 * when they read here, their author page when they write too, Follow, and their posts. Their own
 * profile can be edited; others can be reported; admins set the role.
 */
export default function ProfilePage() {
  const raw = useParams().userId ?? '';
  if (!/^[1-9]\d{0,8}$/.test(raw)) return <NotFoundPage />;
  const userId = Number(raw);
  return <Profile key={userId} userId={userId} />;
}

function Profile({ userId }: { userId: number }) {
  const { t, lang } = useI18n();
  const [params] = useSearchParams();
  const page = parsePage(params.get('page'));
  const query = useProfile(userId);
  const { viewer } = useViewer();
  const notFound = isApiError(query.error) && query.error.status === 404;
  useDocumentTitle(query.data?.username ?? (notFound ? t('notFound.title') : undefined));

  if (notFound) return <InfoNotice>{t('profile.notFound')}</InfoNotice>;
  if (!query.data) {
    if (query.isError)
      return <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />;
    return <SkeletonLines lines={3} label={t('common.loading')} />;
  }

  const profile = query.data;
  const known = viewer !== 'unknown' && viewer !== null;
  const own = known && viewer.userId === userId;
  const here = apiPaths.profilePage(userId);
  return (
    <div className={styles.page}>
      <header className={styles.profileHead}>
        <Avatar name={profile.username} avatar={profile.avatar ?? null} size="large" described />
        <div className={styles.byline}>
          <p className={styles.sharedLabel}>
            {t(profile.authorId === null ? 'profile.reader' : 'author.label')}
          </p>
          <h1 className={styles.profileName}>
            <span lang={textLang(profile.username)}>{profile.username}</span>
            {profile.role && <RoleBadge role={profile.role} />}
          </h1>
          <p className={styles.stats}>
            {profile.since && (
              <span>{t('profile.since', { date: formatFullDate(profile.since, lang) })}</span>
            )}
          </p>
          <p className={styles.stats}>
            {typeof profile.posts === 'number' && (
              <span>{t('profile.postsCount', { n: profile.posts })}</span>
            )}
            {typeof profile.followers === 'number' && (
              <span>{t('profile.followers', { n: profile.followers })}</span>
            )}
            {typeof profile.following === 'number' && (
              <span>{t('profile.followingCount', { n: profile.following })}</span>
            )}
          </p>
        </div>
        {profile.bio && (
          <p className={styles.bio} lang={textLang(profile.bio)}>
            {profile.bio}
          </p>
        )}
        {profile.authorId !== null && (
          <p className={styles.bio}>
            <Link to={apiPaths.authorPage(profile.authorId)}>{t('profile.authorPage')}</Link>
          </p>
        )}
        {known && <ProfileActions profile={profile} own={own} admin={viewer.role === 'admin'} />}
      </header>

      <section className={styles.feed} aria-labelledby="profile-posts">
        <h2 id="profile-posts" className={styles.heading}>
          {t('profile.posts')}
        </h2>
        <FeedList
          key={page}
          source={{
            path: (p) => communityPaths.timeline(userId, p),
            href: (p) => (p > 1 ? `${here}?page=${p}` : here),
            empty: 'profile.noPosts',
          }}
          page={page}
          viewer={viewer}
        />
      </section>
    </div>
  );
}

/** Follow (someone else), Edit (oneself), Report (someone else), the role (admins). */
function ProfileActions(props: { profile: CommunityProfile; own: boolean; admin: boolean }) {
  const { t } = useI18n();
  const client = useQueryClient();
  const { profile } = props;
  const [editing, setEditing] = useState(false);
  const [reporting, setReporting] = useState(false);
  const [error, setError] = useState('');
  const [note, setNote] = useState('');
  const path = communityPaths.profile(profile.userId);
  const failed = (e: unknown) =>
    setError(isApiError(e) && e.message ? e.message : t('common.error'));

  const follow = () => {
    setError('');
    setFollowing(profile.userId, !profile.followed).then((answer) => {
      client.setQueryData<CommunityProfile>([path], (old) =>
        old ? { ...old, followed: answer.following, followers: answer.followers } : old,
      );
      void client.invalidateQueries({ queryKey: [apiPaths.following()] });
    }, failed);
  };

  const changeRole = (role: Role) => {
    setError('');
    setRole(profile.userId, role).then((answer) => {
      client.setQueryData<CommunityProfile>([path], (old) =>
        old ? { ...old, role: answer.role } : old,
      );
      setNote(t('admin.granted'));
    }, failed);
  };

  return (
    <div className={styles.profileActions}>
      {props.own ? (
        <button type="button" className={styles.quiet} onClick={() => setEditing((e) => !e)}>
          {t('profile.edit')}
        </button>
      ) : (
        <>
          <button
            type="button"
            className={profile.followed ? ui.buttonSecondary : ui.button}
            aria-pressed={profile.followed}
            onClick={follow}
          >
            {profile.followed ? t('profile.unfollow') : t('profile.follow')}
          </button>
          <button type="button" className={styles.quiet} onClick={() => setReporting(true)}>
            {t('profile.flag')}
          </button>
        </>
      )}
      {props.admin && !props.own && (
        <label className={styles.row}>
          {t('admin.role')}
          <select
            value={profile.role}
            onChange={(e) => changeRole(e.target.value as Role)}
            className={styles.select}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {t(`role.${r}`)}
              </option>
            ))}
          </select>
        </label>
      )}
      <Feedback error={error} note={note} />
      {editing && <ProfileEditor profile={profile} onDone={() => setEditing(false)} />}
      {reporting && (
        <ReportDialog
          title={t('flag.titleProfile')}
          send={(reason) => flagProfile(profile.userId, reason)}
          onClose={() => setReporting(false)}
        />
      )}
    </div>
  );
}
