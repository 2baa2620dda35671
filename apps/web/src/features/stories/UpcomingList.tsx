import { Link } from 'react-router';
import { detailsPath, type UpcomingItem } from '@kathamala/domain';
import { Cover } from '../../components/Cover.tsx';
import { formatDayMonth } from '../../i18n/dates.ts';
import { useI18n } from '../../i18n/index.tsx';
import ui from '../../components/ui.module.css';
import { storyLang, textLang } from './lang.ts';
import styles from './stories.module.css';

/** Coming soon: each card opens its story's page, which gives the day it comes out. */
export function UpcomingList(props: { items: UpcomingItem[] }) {
  const { t, lang } = useI18n();
  if (props.items.length === 0) return null;
  return (
    <section className={styles.side} aria-labelledby="upcoming-heading">
      <h2 id="upcoming-heading" className={ui.sectionTitle}>
        {t('home.upcoming')}
      </h2>
      <ul className={styles.compactList}>
        {props.items.map((item) => (
          <li key={item.storyId} className={styles.compactItem}>
            <Cover storyId={item.storyId} alt="" width={56} className={styles.compactCover} />
            <div className={styles.compactBody}>
              <h3 className={styles.compactTitle} lang={storyLang(item.language)}>
                <Link to={detailsPath(item.storyId)} className={styles.stretched}>
                  {item.title}
                </Link>
              </h3>
              <p className={styles.author} lang={textLang(item.author.name)}>
                {item.author.name}
              </p>
              <p className={styles.release}>
                <time dateTime={item.releaseDate}>
                  {t('story.releases', { date: formatDayMonth(item.releaseDate, lang) })}
                </time>
              </p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
