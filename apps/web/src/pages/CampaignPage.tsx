import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import {
  CAMPAIGN_CARRIERS,
  type AnswerValue,
  type CampaignCarrier,
  type CampaignSummary,
  type ParticipationAnswer,
  type Question,
  type Questioner,
} from '@kathamala/domain';
import { isApiError } from '../api/client.ts';
import ui from '../components/ui.module.css';
import { ErrorNotice, InfoNotice } from '../components/Notice.tsx';
import { SkeletonLines } from '../components/Skeleton.tsx';
import { useSession } from '../features/auth/useSession.ts';
import {
  fetchQuestioner,
  participate,
  submitResponse,
  useCampaign,
  useStandings,
} from '../features/campaigns/api.ts';
import { CampaignMeta } from '../features/campaigns/CampaignMeta.tsx';
import { useI18n, type MessageKey } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import { LoginWall } from './BookmarksPage.tsx';
import styles from '../features/campaigns/campaigns.module.css';

const message = (err: unknown, fallback: string) =>
  isApiError(err) && err.message ? err.message : fallback;

/**
 * /campaigns/:campaignId: a campaign's page. A questionnaire is answered here in three steps
 * (SPEC.md 4): the mobile and carrier, then the code from the SMS with the answers. A contest
 * shows its rules with the scoring formula, the live (or final) ranking and the winners.
 */
export default function CampaignPage() {
  const { t, lang } = useI18n();
  const id = Number(useParams().campaignId);
  const query = useCampaign(id);
  const c = query.data?.campaign;
  useDocumentTitle(c ? c.title[lang] || c.title.en : t('campaigns.title'));
  if (query.isPending) return <SkeletonLines lines={5} label={t('common.loading')} />;
  if (query.isError || !c)
    return isApiError(query.error) && query.error.status === 404 ? (
      <InfoNotice>{t('campaigns.notFound')}</InfoNotice>
    ) : (
      <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
    );
  return (
    <article className={styles.page}>
      <header>
        <p>
          <Link to="/campaigns">{t('campaigns.title')}</Link>
        </p>
        <h1 className={styles.heading}>{c.title[lang] || c.title.en}</h1>
        <CampaignMeta campaign={c} />
      </header>
      {c.bannerUrl && <img className={styles.banner} src={c.bannerUrl} alt="" />}
      <p>{c.description[lang] || c.description.en}</p>
      {(c.prizes[lang] || c.prizes.en) && (
        <section>
          <h2 className={ui.sectionTitle}>{t('campaigns.prizes')}</h2>
          <p>{c.prizes[lang] || c.prizes.en}</p>
        </section>
      )}
      {c.questionerId !== null && <TakePart campaign={c} questionerId={c.questionerId} />}
      {c.contest && <Contest campaign={c} />}
    </article>
  );
}

function TakePart({ campaign, questionerId }: { campaign: CampaignSummary; questionerId: number }) {
  const { t } = useI18n();
  const session = useSession();
  const [mobile, setMobile] = useState('');
  const [carrier, setCarrier] = useState<CampaignCarrier>('dialog');
  const [step, setStep] = useState<{ p: ParticipationAnswer; q: Questioner } | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  if (campaign.state !== 'running') return <InfoNotice>{t('campaigns.closedNote')}</InfoNotice>;
  if (session.status === 'unknown') return null;
  if (session.status === 'visitor') return <LoginWall />;
  if (done)
    return (
      <p className={ui.noticeSuccess} role="status">
        {t('campaigns.thanks')}
      </p>
    );

  const sendCode = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const p = await participate({
        campaignId: campaign.campaignId,
        questionerId,
        mobile,
        carrier,
      });
      setStep({ p, q: await fetchQuestioner(questionerId) });
    } catch (err) {
      setError(message(err, t('common.error')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={styles.form} aria-labelledby="take-part">
      <h2 id="take-part" className={ui.sectionTitle}>
        {t('campaigns.take')}
      </h2>
      {!step ? (
        <form method="post" className={styles.form} onSubmit={(e) => void sendCode(e)}>
          <label className={ui.field}>
            <span className={ui.label}>{t('campaigns.mobile')}</span>
            <input
              className={ui.input}
              type="tel"
              inputMode="numeric"
              autoComplete="tel-national"
              required
              value={mobile}
              onInput={(e) => setMobile(e.currentTarget.value)}
            />
          </label>
          <label className={ui.field}>
            <span className={ui.label}>{t('campaigns.carrier')}</span>
            <select
              className={ui.input}
              value={carrier}
              onChange={(e) => setCarrier(e.currentTarget.value as CampaignCarrier)}
            >
              {CAMPAIGN_CARRIERS.map((c) => (
                <option key={c} value={c}>
                  {t(`campaigns.carrier.${c}` as MessageKey)}
                </option>
              ))}
            </select>
          </label>
          {error && (
            <p className={ui.fieldError} role="alert">
              {error}
            </p>
          )}
          <button className={ui.button} type="submit" disabled={busy}>
            {t('campaigns.sendCode')}
          </button>
        </form>
      ) : (
        <Answers participation={step.p} questioner={step.q} onDone={() => setDone(true)} />
      )}
    </section>
  );
}

function Answers(props: {
  participation: ParticipationAnswer;
  questioner: Questioner;
  onDone: () => void;
}) {
  const { t } = useI18n();
  const { participation: p, questioner } = props;
  const [code, setCode] = useState('');
  const [answers, setAnswers] = useState<Record<string, AnswerValue>>({});
  const [error, setError] = useState<{ field?: string; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (id: string, v: AnswerValue) => setAnswers((a) => ({ ...a, [id]: v }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await submitResponse({
        participantId: p.participantId,
        refId: p.refId,
        mfaCode: code,
        answers,
      });
      props.onDone();
    } catch (err) {
      setError({
        field: isApiError(err) ? err.field : undefined,
        text: message(err, t('common.error')),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form method="post" className={styles.form} onSubmit={(e) => void submit(e)}>
      <p role="status">{t('campaigns.codeSent', { mobile: p.mobile })}</p>
      <label className={ui.field}>
        <span className={ui.label}>{t('campaigns.code')}</span>
        <input
          className={ui.input}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          value={code}
          aria-invalid={error?.field === 'mfaCode' || undefined}
          onInput={(e) => setCode(e.currentTarget.value)}
        />
      </label>
      {questioner.questions.map((q) => (
        <QuestionField
          key={q.id}
          question={q}
          value={answers[q.id]}
          onChange={(v) => set(q.id, v)}
          invalid={error?.field === q.id}
        />
      ))}
      {error && (
        <p className={ui.fieldError} role="alert">
          {error.text}
        </p>
      )}
      <button className={ui.button} type="submit" disabled={busy}>
        {t('campaigns.submit')}
      </button>
    </form>
  );
}

function QuestionField(props: {
  question: Question;
  value: AnswerValue | undefined;
  onChange: (v: AnswerValue) => void;
  invalid: boolean;
}) {
  const { t, lang } = useI18n();
  const { question: q, value, onChange } = props;
  const label = q.label[lang] || q.label.en;
  const optionLabel = (o: { label: { en: string; si: string } }) => o.label[lang] || o.label.en;
  const legend = (
    <legend>
      {label}
      {q.required && <span className={styles.lead}>{` (${t('campaigns.required')})`}</span>}
    </legend>
  );
  if (q.kind === 'short' || q.kind === 'long') {
    const common = {
      className: ui.input,
      value: typeof value === 'string' ? value : '',
      required: q.required,
      'aria-invalid': props.invalid || undefined,
      onInput: (e: { currentTarget: { value: string } }) => onChange(e.currentTarget.value),
    };
    return (
      <label className={`${ui.field} ${styles.question}`}>
        <span className={ui.label}>
          {label}
          {q.required && ` (${t('campaigns.required')})`}
        </span>
        {q.kind === 'short' ? (
          <input {...common} maxLength={200} />
        ) : (
          <textarea {...common} rows={4} maxLength={2000} />
        )}
      </label>
    );
  }
  if (q.kind === 'rating')
    return (
      <fieldset className={styles.question} aria-invalid={props.invalid || undefined}>
        {legend}
        <div className={styles.ratings}>
          {[1, 2, 3, 4, 5].map((n) => (
            <label key={n} className={styles.choice}>
              <input
                type="radio"
                name={q.id}
                checked={value === n}
                onChange={() => onChange(n)}
                aria-label={t('campaigns.ratingOf', { n })}
              />
              {n}
            </label>
          ))}
        </div>
      </fieldset>
    );
  const chosen = Array.isArray(value) ? value : [];
  return (
    <fieldset className={styles.question} aria-invalid={props.invalid || undefined}>
      {legend}
      {(q.options ?? []).map((o) =>
        q.kind === 'single' ? (
          <label key={o.id} className={styles.choice}>
            <input
              type="radio"
              name={q.id}
              checked={value === o.id}
              onChange={() => onChange(o.id)}
            />
            {optionLabel(o)}
          </label>
        ) : (
          <label key={o.id} className={styles.choice}>
            <input
              type="checkbox"
              checked={chosen.includes(o.id)}
              onChange={(e) =>
                onChange(
                  e.currentTarget.checked ? [...chosen, o.id] : chosen.filter((x) => x !== o.id),
                )
              }
            />
            {optionLabel(o)}
          </label>
        ),
      )}
    </fieldset>
  );
}

/** A contest's rules (with the scoring formula), ranking per track, winners and ad metrics. */
function Contest({ campaign: c }: { campaign: CampaignSummary }) {
  const { t } = useI18n();
  const standings = useStandings(c.campaignId);
  const rules = c.contest!;
  const data = standings.data;
  return (
    <>
      <section className={styles.rules}>
        <h2 className={ui.sectionTitle}>{t('contest.rules')}</h2>
        <p>{t('contest.track', { track: t(`contest.track.${rules.track}`) })}</p>
        {rules.minEpisodes > 0 && <p>{t('contest.minEpisodes', { n: rules.minEpisodes })}</p>}
        {rules.startWithin && <p>{t('contest.startWithin')}</p>}
        <p>{t('contest.formula')}</p>
        {rules.rubricShare > 0 && (
          <p>{t('contest.rubricShare', { n: Math.round(rules.rubricShare * 100) })}</p>
        )}
      </section>
      <section>
        <h2 className={ui.sectionTitle}>
          {t(data?.frozen ? 'contest.finalRanking' : 'contest.ranking')}
        </h2>
        {standings.isPending ? (
          <SkeletonLines lines={3} label={t('common.loading')} />
        ) : standings.isError ? (
          <ErrorNotice error={standings.error} onRetry={() => void standings.refetch()} />
        ) : !data!.contestantList.length ? (
          <InfoNotice>{t('contest.noEntries')}</InfoNotice>
        ) : (
          (['sinhala', 'english'] as const).map((track) => {
            const rows = data!.contestantList.filter((x) => x.track === track);
            if (!rows.length) return null;
            return (
              <table key={track} className={styles.table}>
                <caption>{t(`contest.track.${track}`)}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('contest.rank')}</th>
                    <th scope="col">{t('contest.story')}</th>
                    <th scope="col">{t('contest.readers')}</th>
                    <th scope="col">{t('contest.score')}</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((x) => (
                    <tr key={x.storyId}>
                      <td>{x.rank}</td>
                      <td>
                        <Link to={`/details/${x.storyId}`}>{x.title}</Link>
                        <br />
                        <Link to={`/author/${x.authorId}`}>{x.author}</Link>
                        {x.winnerPlace !== null && (
                          <span className={styles.winner}>
                            {` · ${t('contest.winner', { n: x.winnerPlace })}`}
                          </span>
                        )}
                      </td>
                      <td>{x.engagedReaders}</td>
                      <td>{x.score}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            );
          })
        )}
        {data?.adMetrics && (
          <p className={styles.meta}>
            {t('contest.adMetrics', {
              impressions: data.adMetrics.impressions,
              clicks: data.adMetrics.clicks,
              spend: data.adMetrics.spend,
            })}
          </p>
        )}
      </section>
    </>
  );
}
