import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { CampaignSummary, ManagedCampaign, Question } from '@kathamala/domain';
import { isApiError } from '../api/client.ts';
import ui from '../components/ui.module.css';
import { ErrorNotice, InfoNotice } from '../components/Notice.tsx';
import { SkeletonLines } from '../components/Skeleton.tsx';
import { useSession } from '../features/auth/useSession.ts';
import { useCommunityMe } from '../features/community/api.ts';
import {
  downloadCsv,
  saveCampaign,
  useManaged,
  useManagedList,
} from '../features/campaigns/api.ts';
import { CampaignMeta } from '../features/campaigns/CampaignMeta.tsx';
import { useI18n } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import { LoginWall } from './BookmarksPage.tsx';
import { Forbidden } from './CommunityReviewsPage.tsx';
import styles from '../features/campaigns/campaigns.module.css';

/**
 * /campaigns/manage: editors create and edit campaigns, see the responses with counts per
 * choice as bar charts (mobiles masked), and download them as CSV.
 */
export default function CampaignManagePage() {
  const { t } = useI18n();
  const session = useSession();
  const me = useCommunityMe(session.status === 'reader');
  useDocumentTitle(t('manage.title'));
  let body;
  if (session.status === 'unknown' || (session.status === 'reader' && me.isPending))
    body = <SkeletonLines lines={4} label={t('common.loading')} />;
  else if (session.status === 'visitor') body = <LoginWall />;
  else if (me.data?.role !== 'editor' && me.data?.role !== 'admin')
    body = <Forbidden text={t('manage.forbidden')} />;
  else body = <Manage />;
  return (
    <div className={styles.page}>
      <h1 className={styles.heading}>{t('manage.title')}</h1>
      {body}
    </div>
  );
}

function Manage() {
  const { t, lang } = useI18n();
  const list = useManagedList(true);
  const [selected, setSelected] = useState<number | null>(null);
  const [editing, setEditing] = useState<CampaignSummary | 'new' | null>(null);
  if (list.isPending) return <SkeletonLines lines={4} label={t('common.loading')} />;
  if (list.isError) return <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />;
  return (
    <>
      <p>
        <button type="button" className={ui.buttonSecondary} onClick={() => setEditing('new')}>
          {t('manage.new')}
        </button>
      </p>
      {editing && (
        <CampaignForm
          initial={editing === 'new' ? null : editing}
          onDone={() => setEditing(null)}
        />
      )}
      <ul className={styles.list}>
        {list.data.campaigns.map((c) => (
          <li key={c.campaignId} className={styles.card}>
            <h2>
              <Link to={`/campaigns/${c.campaignId}`}>{c.title[lang] || c.title.en}</Link>
            </h2>
            <CampaignMeta campaign={c} />
            <p className={styles.meta}>
              {c.questionerId !== null && (
                <button
                  type="button"
                  className={ui.button}
                  aria-expanded={selected === c.campaignId}
                  onClick={() => setSelected(selected === c.campaignId ? null : c.campaignId)}
                >
                  {t('manage.showResponses')}
                </button>
              )}
              <button type="button" className={ui.buttonSecondary} onClick={() => setEditing(c)}>
                {t('manage.edit')}
              </button>
            </p>
            {selected === c.campaignId && <Responses id={c.campaignId} />}
          </li>
        ))}
      </ul>
    </>
  );
}

/** Counts per choice as bars, the responses with masked mobiles, and the CSV download. */
function Responses({ id }: { id: number }) {
  const { t, lang } = useI18n();
  const query = useManaged(id);
  const [error, setError] = useState(false);
  if (query.isPending) return <SkeletonLines lines={3} label={t('common.loading')} />;
  if (query.isError)
    return <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />;
  const m: ManagedCampaign = query.data;
  return (
    <div className={styles.form}>
      <p>
        <strong>{t('manage.responses', { n: m.responseCount })}</strong>{' '}
        <button
          type="button"
          className={ui.buttonSecondary}
          onClick={() => downloadCsv(id).catch(() => setError(true))}
        >
          {t('manage.csv')}
        </button>
      </p>
      {error && <ErrorNotice />}
      {m.questions
        .filter((q) => q.kind === 'single' || q.kind === 'multiple' || q.kind === 'rating')
        .map((q) => {
          const counts = m.counts[q.id] ?? {};
          const options =
            q.kind === 'rating'
              ? ['1', '2', '3', '4', '5'].map((n) => ({ id: n, name: n }))
              : (q.options ?? []).map((o) => ({ id: o.id, name: o.label[lang] || o.label.en }));
          const max = Math.max(1, ...options.map((o) => counts[o.id] ?? 0));
          return (
            <figure key={q.id} className={styles.question}>
              <figcaption>{q.label[lang] || q.label.en}</figcaption>
              <div className={styles.bars}>
                {options.map((o) => (
                  <div key={o.id} className={styles.bar} data-choice={o.id}>
                    <span>{o.name}</span>
                    <span className={styles.barTrack} aria-hidden="true">
                      <span
                        className={styles.barFill}
                        style={{ width: `${(100 * (counts[o.id] ?? 0)) / max}%`, display: 'block' }}
                      />
                    </span>
                    <span data-count>{counts[o.id] ?? 0}</span>
                  </div>
                ))}
              </div>
            </figure>
          );
        })}
      {m.responses.length === 0 ? (
        <InfoNotice>{t('manage.noResponses')}</InfoNotice>
      ) : (
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">{t('manage.mobile')}</th>
              <th scope="col">{t('manage.when')}</th>
            </tr>
          </thead>
          <tbody>
            {m.responses.map((r) => (
              <tr key={r.responseId}>
                <td>{r.responseId}</td>
                <td>{r.mobile}</td>
                <td>{r.createdAt.slice(0, 16).replace('T', ' ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {m.reports.length > 0 && (
        <section>
          <h3>{t('manage.reports')}</h3>
          <ul>
            {m.reports.map((r) => (
              <li key={r.fetchedAt + r.url}>
                {r.status}
                {r.reason ? `: ${r.reason}` : ''}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** 'single | Genre | ප්‍රභේදය | Romance/ප්‍රේම, Mystery/අභිරහස්' per line, to questions. */
export function parseQuestions(text: string): Question[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line, i) => {
      const [kind = 'short', en = '', si = '', choices = ''] = line.split('|').map((s) => s.trim());
      const required = kind.endsWith('*');
      const options = choices
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean)
        .map((c, j) => {
          const [cen = '', csi = ''] = c.split('/').map((s) => s.trim());
          return { id: `o${j + 1}`, label: { en: cen, si: csi || cen } };
        });
      return {
        id: `q${i + 1}`,
        kind: kind.replace('*', '') as Question['kind'],
        required,
        label: { en, si: si || en },
        ...(options.length ? { options } : {}),
      };
    });
}

const questionsText = (qs: Question[]) =>
  qs
    .map((q) =>
      [
        `${q.kind}${q.required ? '*' : ''}`,
        q.label.en,
        q.label.si,
        (q.options ?? []).map((o) => `${o.label.en}/${o.label.si}`).join(', '),
      ].join(' | '),
    )
    .join('\n');

function CampaignForm({
  initial,
  onDone,
}: {
  initial: CampaignSummary | null;
  onDone: () => void;
}) {
  const { t } = useI18n();
  const client = useQueryClient();
  const existing = useManaged(initial?.campaignId ?? null);
  const day = (iso?: string) => (iso ?? new Date().toISOString()).slice(0, 10);
  const [v, setV] = useState({
    titleEn: initial?.title.en ?? '',
    titleSi: initial?.title.si ?? '',
    descriptionEn: initial?.description.en ?? '',
    descriptionSi: initial?.description.si ?? '',
    startsAt: day(initial?.startsAt),
    endsAt: day(initial?.endsAt ?? new Date(Date.now() + 14 * 86_400_000).toISOString()),
    questions: '',
  });
  const [error, setError] = useState('');
  const [note, setNote] = useState('');
  const questions = v.questions || (existing.data ? questionsText(existing.data.questions) : '');
  const field = (key: keyof typeof v, label: string, long = false) => (
    <label className={ui.field}>
      <span className={ui.label}>{label}</span>
      {long ? (
        <textarea
          className={ui.input}
          rows={key === 'questions' ? 5 : 3}
          value={key === 'questions' ? questions : v[key]}
          onInput={(e) => setV({ ...v, [key]: e.currentTarget.value })}
        />
      ) : (
        <input
          className={ui.input}
          type={key === 'startsAt' || key === 'endsAt' ? 'date' : 'text'}
          value={v[key]}
          onInput={(e) => setV({ ...v, [key]: e.currentTarget.value })}
        />
      )}
    </label>
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError('');
    const qs = parseQuestions(questions);
    saveCampaign({
      ...(initial ? { campaignId: initial.campaignId } : {}),
      title: { en: v.titleEn, si: v.titleSi },
      description: { en: v.descriptionEn, si: v.descriptionSi },
      startsAt: new Date(`${v.startsAt}T00:00:00+05:30`).toISOString(),
      endsAt: new Date(`${v.endsAt}T23:59:59+05:30`).toISOString(),
      ...(qs.length ? { questionnaire: { questions: qs } } : {}),
      ...(initial?.contest ? { contest: initial.contest } : {}),
    }).then(
      () => {
        setNote(t('manage.saved'));
        void client.invalidateQueries();
        onDone();
      },
      (err: unknown) => setError(isApiError(err) && err.message ? err.message : t('common.error')),
    );
  };
  return (
    <form method="post" className={`${styles.form} ${styles.card}`} onSubmit={submit}>
      {field('titleEn', t('manage.titleEn'))}
      {field('titleSi', t('manage.titleSi'))}
      {field('descriptionEn', t('manage.descriptionEn'), true)}
      {field('descriptionSi', t('manage.descriptionSi'), true)}
      {field('startsAt', t('manage.starts'))}
      {field('endsAt', t('manage.ends'))}
      {field('questions', t('manage.questions'), true)}
      {error && (
        <p className={ui.fieldError} role="alert">
          {error}
        </p>
      )}
      {note && <p role="status">{note}</p>}
      <button className={ui.button} type="submit">
        {t('manage.save')}
      </button>
    </form>
  );
}
