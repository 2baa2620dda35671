import { formatCount } from '@kathamala/domain';
import { useI18n } from '../../i18n/index.tsx';
import styles from './stories.module.css';

/** Reads, rating and parts of a story, as one quiet line. */
export function StoryMeta(props: {
  reads: number;
  rating: number;
  parts?: number;
  ongoing?: boolean;
}) {
  const { t } = useI18n();
  return (
    <ul className={styles.meta}>
      <li>
        {/* One text node after the count, as the server's HTML has it: two (a space, then the
            word) made hydration rewrite it on every card. */}
        <strong>{formatCount(props.reads)}</strong>
        {` ${t('story.reads')}`}
      </li>
      {props.rating > 0 && (
        <li aria-label={t('story.rating', { n: props.rating.toFixed(1) })}>
          <span className={styles.star} aria-hidden="true">
            ★
          </span>{' '}
          <span aria-hidden="true">{props.rating.toFixed(1)}</span>
        </li>
      )}
      {props.parts !== undefined && <li>{t('story.parts', { n: props.parts })}</li>}
      {props.ongoing !== undefined && (
        <li>{t(props.ongoing ? 'story.ongoing' : 'story.completed')}</li>
      )}
    </ul>
  );
}

export function MembersBadge() {
  const { t } = useI18n();
  return (
    <span className={styles.membersBadge}>
      <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
        <path
          d="M8 1.5 10 6l4.5.4-3.4 3 1 4.6L8 11.6 3.9 14l1-4.6-3.4-3L6 6z"
          fill="currentColor"
        />
      </svg>
      {t('story.membersOnly')}
    </span>
  );
}
