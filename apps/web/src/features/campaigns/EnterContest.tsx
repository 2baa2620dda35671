import { useState } from 'react';
import { Link } from 'react-router';
import { isApiError } from '../../api/client.ts';
import ui from '../../components/ui.module.css';
import { useI18n } from '../../i18n/index.tsx';
import { enterStory, useCampaigns } from './api.ts';
import styles from './campaigns.module.css';

/**
 * On the author's story page (/publish/story/): enter the story in a running writing contest.
 * A refusal says the rule it broke, as the server words it. Nothing shows without a contest.
 */
export function EnterContest({ storyId }: { storyId: number }) {
  const { t, lang } = useI18n();
  const campaigns = useCampaigns();
  const open = (campaigns.data?.campaigns ?? []).filter((c) => c.contest && c.state === 'running');
  const [chosen, setChosen] = useState<number | null>(null);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  if (!open.length) return null;
  const campaignId = chosen ?? open[0]!.campaignId;
  const enter = () => {
    setResult(null);
    enterStory(campaignId, storyId).then(
      () => setResult({ ok: true, text: t('contest.entered') }),
      (err: unknown) =>
        setResult({
          ok: false,
          text: isApiError(err) && err.message ? err.message : t('common.error'),
        }),
    );
  };
  return (
    <section className={styles.card} aria-labelledby="enter-contest">
      <h2 id="enter-contest" className={ui.sectionTitle}>
        {t('contest.enter')}
      </h2>
      <label className={ui.field}>
        <span className={ui.label}>{t('campaigns.kind.contest')}</span>
        <select
          className={ui.input}
          value={campaignId}
          onChange={(e) => setChosen(Number(e.currentTarget.value))}
        >
          {open.map((c) => (
            <option key={c.campaignId} value={c.campaignId}>
              {c.title[lang] || c.title.en}
            </option>
          ))}
        </select>
      </label>
      <p className={styles.meta}>
        <Link to={`/campaigns/${campaignId}`}>{t('contest.rules')}</Link>
      </p>
      <button type="button" className={ui.button} onClick={enter}>
        {t('contest.enter')}
      </button>
      {result && (
        <p
          className={result.ok ? ui.noticeSuccess : ui.fieldError}
          role={result.ok ? 'status' : 'alert'}
        >
          {result.text}
        </p>
      )}
    </section>
  );
}
