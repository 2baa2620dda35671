import { Link } from 'react-router';
import type { CampaignSummary } from '@kathamala/domain';
import { ErrorNotice, InfoNotice } from '../components/Notice.tsx';
import { SkeletonLines } from '../components/Skeleton.tsx';
import { useCampaigns } from '../features/campaigns/api.ts';
import { CampaignMeta } from '../features/campaigns/CampaignMeta.tsx';
import { useI18n } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import styles from '../features/campaigns/campaigns.module.css';

/** /campaigns: running, upcoming and ended campaigns with their dates and kinds. */
export default function CampaignsPage() {
  const { t, lang } = useI18n();
  useDocumentTitle(t('campaigns.title'));
  const query = useCampaigns();
  let body;
  if (query.isPending) body = <SkeletonLines lines={4} label={t('common.loading')} />;
  else if (query.isError)
    body = <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />;
  else if (!query.data.campaigns.length) body = <InfoNotice>{t('campaigns.empty')}</InfoNotice>;
  else {
    const order = { running: 0, upcoming: 1, ended: 2 };
    const sorted = [...query.data.campaigns].sort((a, b) => order[a.state] - order[b.state]);
    body = (
      <ul className={styles.list}>
        {sorted.map((c: CampaignSummary) => (
          <li key={c.campaignId} className={styles.card}>
            <h2>
              <Link to={`/campaigns/${c.campaignId}`}>{c.title[lang] || c.title.en}</Link>
            </h2>
            <CampaignMeta campaign={c} />
            <p>{c.description[lang] || c.description.en}</p>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div className={styles.page}>
      <header>
        <h1 className={styles.heading}>{t('campaigns.title')}</h1>
        <p className={styles.lead}>{t('campaigns.lead')}</p>
      </header>
      {body}
    </div>
  );
}
