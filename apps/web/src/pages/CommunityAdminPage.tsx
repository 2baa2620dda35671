import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { communityPaths, parsePage, ROLES, type AuditEntry, type Role } from '@kathamala/domain';
import { apiRequest, isApiError } from '../api/client.ts';
import ui from '../components/ui.module.css';
import { ErrorNotice, InfoNotice } from '../components/Notice.tsx';
import { SkeletonLines } from '../components/Skeleton.tsx';
import { useSession } from '../features/auth/useSession.ts';
import { setRole, useCommunityMe } from '../features/community/api.ts';
import { communityPages } from '../features/community/paths.ts';
import { formatDayMonth } from '../i18n/dates.ts';
import { useI18n, type MessageKey, type Translate } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import { LoginWall } from './BookmarksPage.tsx';
import { Forbidden } from './CommunityReviewsPage.tsx';
import styles from '../features/community/community.module.css';
import { Feedback, PageLinks } from '../features/community/Feedback.tsx';

/** A profile's number from its address (/profile/12/, /community/profile/12) or the number itself. */
export const profileIdOf = (text: string): number | null => {
  const m = /^(?:.*\/profile\/)?([1-9]\d{0,8})\/?$/.exec(text.trim());
  return m ? Number(m[1]) : null;
};

/**
 * /community/admin: admins grant and remove the editor role and read the audit log of every
 * decision, removal, pin and role change.
 */
export default function CommunityAdminPage() {
  const { t } = useI18n();
  const session = useSession();
  const me = useCommunityMe(session.status === 'reader');
  useDocumentTitle(t('admin.title'));
  let body;
  if (session.status === 'unknown' || (session.status === 'reader' && me.isPending))
    body = <SkeletonLines lines={4} label={t('common.loading')} />;
  else if (session.status === 'visitor') body = <LoginWall />;
  else if (me.data?.role !== 'admin') body = <Forbidden text={t('admin.forbidden')} />;
  else
    body = (
      <>
        <RoleForm />
        <AuditLog />
      </>
    );
  return (
    <div className={styles.wide}>
      <header className={styles.pageHead}>
        <h1 className={styles.heading}>{t('admin.title')}</h1>
        <p className={styles.editorLinks}>
          <Link to={communityPages.reviews()}>{t('reviews.title')}</Link>
        </p>
      </header>
      {body}
    </div>
  );
}

function RoleForm() {
  const { t } = useI18n();
  const [person, setPerson] = useState('');
  const [role, setRoleChoice] = useState<Role>('editor');
  const [error, setError] = useState('');
  const [note, setNote] = useState('');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setNote('');
    const id = profileIdOf(person);
    if (id === null) return setError(t('admin.personInvalid'));
    setError('');
    setRole(id, role).then(
      () => setNote(t('admin.granted')),
      (err: unknown) => setError(isApiError(err) && err.message ? err.message : t('common.error')),
    );
  };

  return (
    <form method="post" className={styles.composer} onSubmit={submit}>
      <h2 className={styles.sharedTitle}>{t('admin.grant')}</h2>
      <label className={ui.field}>
        <span className={ui.label}>{t('admin.person')}</span>
        <input
          className={ui.input}
          value={person}
          required
          aria-invalid={error ? true : undefined}
          onChange={(e) => setPerson(e.target.value)}
        />
        <span className={ui.hint}>{t('admin.personHint')}</span>
      </label>
      <label className={ui.field}>
        <span className={ui.label}>{t('admin.role')}</span>
        <select
          className={styles.select}
          value={role}
          onChange={(e) => setRoleChoice(e.target.value as Role)}
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {t(`role.${r}`)}
            </option>
          ))}
        </select>
      </label>
      <Feedback error={error} note={note} />
      <p>
        <button type="submit" className={ui.button}>
          {t('admin.grantSend')}
        </button>
      </p>
    </form>
  );
}

/** The actions the community and the review record, in words. */
const AUDIT_ACTIONS = new Set<MessageKey>([
  'audit.role.grant',
  'audit.role.remove',
  'audit.post.remove',
  'audit.post.pin',
  'audit.post.unpin',
  'audit.review.decide',
  'audit.review.word.add',
  'audit.review.word.remove',
]);

/** An audit row's action in words (the role given or taken, a decision), else as recorded. */
function auditAction(t: Translate, row: AuditEntry): string {
  const key = `audit.${row.action}` as MessageKey;
  const words = AUDIT_ACTIONS.has(key) ? t(key) : row.action;
  const detail = row.detail as { to?: string; decision?: string } | null;
  const to = detail?.to && (ROLES as readonly string[]).includes(detail.to) ? detail.to : null;
  if (to) return `${words}: ${t(`role.${to as Role}`)}`;
  return detail?.decision ? `${words}: ${detail.decision}` : words;
}

/** What a row is about: a profile or a post links to it. */
function AuditTarget({ row }: { row: AuditEntry }) {
  const { t } = useI18n();
  const id = row.targetId;
  if (row.targetKind === 'user')
    return <Link to={communityPages.profile(id)}>{t('audit.targetUser', { id })}</Link>;
  if (row.targetKind === 'post')
    return <Link to={communityPages.post(id)}>{t('audit.targetPost', { id })}</Link>;
  return <>{`${row.targetKind} ${id}`}</>;
}

function AuditLog() {
  const { t, lang } = useI18n();
  const [params] = useSearchParams();
  const page = parsePage(params.get('page'));
  const path = communityPaths.audit(page);
  const query = useQuery({
    queryKey: [path],
    queryFn: ({ signal }) => apiRequest<{ list: AuditEntry[]; hasNext: boolean }>(path, { signal }),
    staleTime: 0,
    retry: false,
  });
  return (
    <section className={styles.feed} aria-labelledby="audit">
      <h2 id="audit" className={styles.sharedTitle}>
        {t('admin.audit')}
      </h2>
      {!query.data ? (
        query.isError ? (
          <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
        ) : (
          <SkeletonLines lines={4} label={t('common.loading')} />
        )
      ) : query.data.list.length === 0 ? (
        <InfoNotice>
          <p>{t('admin.auditEmpty')}</p>
        </InfoNotice>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">{t('admin.auditWhen')}</th>
                <th scope="col">{t('admin.auditWho')}</th>
                <th scope="col">{t('admin.auditWhat')}</th>
                <th scope="col">{t('admin.auditTarget')}</th>
                <th scope="col">{t('admin.auditReason')}</th>
              </tr>
            </thead>
            <tbody>
              {query.data.list.map((row) => (
                <tr key={row.id}>
                  <td>
                    <time dateTime={row.createdAt}>{formatDayMonth(row.createdAt, lang)}</time>
                  </td>
                  <td>
                    {row.actor ? (
                      <Link to={communityPages.profile(row.actor.userId)}>
                        {row.actor.username}
                      </Link>
                    ) : (
                      t('audit.commandLine')
                    )}
                  </td>
                  <td>{auditAction(t, row)}</td>
                  <td>
                    <AuditTarget row={row} />
                  </td>
                  <td>{row.reason ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <PageLinks page={page} hasNext={query.data?.hasNext ?? false} />
    </section>
  );
}
