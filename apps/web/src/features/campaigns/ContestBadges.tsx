import { useQuery } from '@tanstack/react-query';
import { campaignPaths } from '@kathamala/domain';
import { Link } from 'react-router';
import { apiRequest } from '../../api/client.ts';
import ui from '../../components/ui.module.css';
import { useI18n } from '../../i18n/index.tsx';
import styles from './campaigns.module.css';

interface Badge {
  campaignId: number;
  title: { en: string; si: string };
  place: number;
}

/** An author's contest wins, as badges on their page; nothing when they have none. */
export function ContestBadges({ authorId }: { authorId: number }) {
  const { t, lang } = useI18n();
  const query = useQuery({
    queryKey: [campaignPaths.badges(authorId)],
    queryFn: ({ signal }) =>
      apiRequest<{ badges: Badge[] }>(campaignPaths.badges(authorId), { signal }),
  });
  const badges = query.data?.badges ?? [];
  if (!badges.length) return null;
  return (
    <p className={styles.meta}>
      {badges.map((b) => (
        <Link key={b.campaignId} to={`/campaigns/${b.campaignId}`} className={ui.badge}>
          {`${t('contest.winner', { n: b.place })}: ${b.title[lang] || b.title.en}`}
        </Link>
      ))}
    </p>
  );
}
