import { useId, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { formatCount, MAX_RATING } from '@kathamala/domain';
import { useI18n } from '../../i18n/index.tsx';
import {
  fewerClaps,
  nextClaps,
  NO_RATING,
  ratingStyleFor,
  starFill,
  starsAfterKey,
  starsAtPointer,
} from './rules.ts';
import { useRating, type RatingStats, type RatingStatus } from './useRating.ts';
import styles from './rating.module.css';

/**
 * The rating panel under an episode (SPEC.md 2): stars in half steps for text stories, claps
 * for kinds 2 and 3. Only for readers who may read the story (the page decides).
 */
export function RatingPanel(props: {
  storyId: number;
  kind: number;
  rating: number;
  ratingCount?: number;
  userRating: number | null;
}) {
  const { t } = useI18n();
  const style = ratingStyleFor(props.kind);
  const { value, stats, status, change } = useRating(props.storyId, props.userRating ?? 0, {
    rating: props.rating,
    ratingCount: props.ratingCount,
  });
  const titleId = useId();

  return (
    <section className={styles.panel} aria-labelledby={titleId} data-rating-style={style}>
      <h2 id={titleId} className={styles.title}>
        {t(style === 'claps' ? 'rating.clapTitle' : 'rating.title')}
      </h2>
      {style === 'claps' ? (
        <Claps
          value={value}
          onClap={() => change(nextClaps(value))}
          onTakeBack={() => change(fewerClaps(value))}
        />
      ) : (
        <>
          <Stars value={value} onChange={change} />
          {value > 0 && (
            <button type="button" className={styles.takeBack} onClick={() => change(NO_RATING)}>
              {t('rating.clear')}
            </button>
          )}
        </>
      )}
      <Summary stats={stats} style={style} />
      <StatusLine status={status} />
    </section>
  );
}

function Summary({ stats, style }: { stats: RatingStats; style: 'stars' | 'claps' }) {
  const { t } = useI18n();
  if (stats.rating <= 0 && !stats.ratingCount)
    return <p className={styles.summary}>{t('rating.first')}</p>;
  const average = stats.rating.toFixed(1);
  return (
    <p className={styles.summary} data-testid="rating-summary">
      {style === 'claps'
        ? t('rating.averageClaps', { count: stats.rating, n: average })
        : t('rating.average', { n: average })}
      {stats.ratingCount !== undefined && (
        <>
          {' · '}
          {t('rating.count', {
            count: stats.ratingCount,
            n: formatCount(stats.ratingCount),
          })}
        </>
      )}
    </p>
  );
}

function StatusLine({ status }: { status: RatingStatus }) {
  const { t } = useI18n();
  return (
    <p
      className={status === 'error' ? styles.statusError : styles.status}
      role="status"
      aria-live="polite"
    >
      {status === 'saving'
        ? t('rating.saving')
        : status === 'saved'
          ? t('rating.saved')
          : status === 'cleared'
            ? t('rating.cleared')
            : status === 'error'
              ? t('rating.failed')
              : ''}
    </p>
  );
}

const STAR_PATH =
  'M12 2.2l2.95 6.3 6.85.8-5.07 4.7 1.35 6.8L12 17.4l-6.08 3.4 1.35-6.8L2.2 9.3l6.85-.8z';

/** Five stars as one slider: arrows move by half a star, a click on a star's left half too. */
function Stars({ value, onChange }: { value: number; onChange: (v: number) => void }) {
  const { t } = useI18n();
  const [hover, setHover] = useState<number | null>(null);
  const shown = hover ?? value;

  const onKeyDown = (e: KeyboardEvent) => {
    const next = starsAfterKey(value, e.key);
    if (next === null) return;
    e.preventDefault();
    if (next !== value) onChange(next);
  };
  const at = (e: PointerEvent<HTMLSpanElement>, index: number) => {
    const box = e.currentTarget.getBoundingClientRect();
    return starsAtPointer(index, box.width > 0 ? (e.clientX - box.left) / box.width : 1);
  };

  return (
    <div
      className={styles.stars}
      role="slider"
      tabIndex={0}
      aria-label={t('rating.yours')}
      aria-valuemin={0.5}
      aria-valuemax={MAX_RATING}
      aria-valuenow={value > 0 ? value : undefined}
      aria-valuetext={value > 0 ? t('rating.starsValue', { n: value }) : t('rating.none')}
      onKeyDown={onKeyDown}
      onPointerLeave={() => setHover(null)}
    >
      {[0, 1, 2, 3, 4].map((i) => {
        const fill = starFill(shown, i);
        return (
          <span
            key={i}
            className={styles.star}
            data-fill={fill}
            data-testid={`star-${i + 1}`}
            onPointerMove={(e) => e.pointerType === 'mouse' && setHover(at(e, i))}
            onClick={(e) => {
              const next = at(e as unknown as PointerEvent<HTMLSpanElement>, i);
              setHover(null);
              if (next !== value) onChange(next);
            }}
          >
            <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d={STAR_PATH} className={styles.starEmpty} />
            </svg>
            {fill > 0 && (
              <span className={fill === 1 ? styles.fillFull : styles.fillHalf} aria-hidden="true">
                <svg viewBox="0 0 24 24" focusable="false">
                  <path d={STAR_PATH} className={styles.starFull} />
                </svg>
              </span>
            )}
          </span>
        );
      })}
      <span className={styles.starsValue} aria-hidden="true">
        {value > 0 ? value.toFixed(1) : ''}
      </span>
    </div>
  );
}

/**
 * A clap button: each press adds one, up to 5; the count shows beside it. Claps can be taken
 * back one at a time, down to none (no rating).
 */
function Claps(props: { value: number; onClap: () => void; onTakeBack: () => void }) {
  const { value, onClap } = props;
  const { t } = useI18n();
  const claps = Math.floor(value);
  const full = claps >= MAX_RATING;
  return (
    <div className={styles.claps}>
      <button
        type="button"
        className={styles.clapButton}
        onClick={onClap}
        disabled={full}
        aria-label={t('rating.clap')}
        aria-describedby={undefined}
      >
        <svg viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
          <path
            d="M8.6 21.2l-4.3-4.3a2 2 0 0 1 0-2.8l.4-.4a1.6 1.6 0 0 1 2.3 0l.8.8-3-3a1.6 1.6 0 0 1 2.3-2.3l3 3-4-4a1.6 1.6 0 0 1 2.3-2.3l4 4-2.9-2.9a1.6 1.6 0 0 1 2.3-2.3l5.3 5.3a6 6 0 0 1 0 8.5l-.8.8a6 6 0 0 1-7.8.6z"
            fill="currentColor"
          />
          <path
            d="M15.5 2.5l.6-1.7M19 4.6l1.4-1.2M20.5 8.2l1.7-.3"
            stroke="currentColor"
            strokeWidth="1.6"
            strokeLinecap="round"
          />
        </svg>
        <span>{t('rating.clap')}</span>
      </button>
      <p className={styles.clapCount} aria-live="polite">
        <strong data-testid="clap-count">{claps}</strong>
        {` ${t('rating.clapsOf', { max: MAX_RATING })}`}
      </p>
      {claps > 0 && (
        <button type="button" className={styles.takeBack} onClick={props.onTakeBack}>
          {t('rating.unclap')}
        </button>
      )}
    </div>
  );
}
