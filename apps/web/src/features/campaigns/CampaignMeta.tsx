import type { CampaignSummary } from '@kathamala/domain';
import ui from '../../components/ui.module.css';
import { formatDayMonth } from '../../i18n/dates.ts';
import { useI18n } from '../../i18n/index.tsx';
import styles from './campaigns.module.css';

/** A campaign's state, kinds and dates, as a line of small labels. */
export function CampaignMeta({ campaign: c }: { campaign: CampaignSummary }) {
  const { t, lang } = useI18n();
  return (
    <p className={styles.meta}>
      <span className={ui.badge}>{t(`campaigns.${c.state}`)}</span>
      {c.kinds.map((k) => (
        <span key={k} className={ui.badge}>
          {t(k === 'contest' ? 'campaigns.kind.contest' : 'campaigns.kind.questionnaire')}
        </span>
      ))}
      <span>
        {t('campaigns.dates', {
          from: formatDayMonth(c.startsAt, lang),
          to: formatDayMonth(c.endsAt, lang),
        })}
      </span>
    </p>
  );
}
