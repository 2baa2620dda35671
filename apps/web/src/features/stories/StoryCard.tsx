import { Link } from 'react-router';
import { detailsPath, type StoryListItem } from '@kathamala/domain';
import { Cover } from '../../components/Cover.tsx';
import { storyLang, textLang } from './lang.ts';
import { MembersBadge, StoryMeta } from './StoryMeta.tsx';
import styles from './stories.module.css';

/** A story in a list: cover, title, author, a line of description and its numbers. */
export function StoryCard(props: {
  story: StoryListItem;
  eager?: boolean;
  /** The title's heading level: one below the heading the list stands under (2 under a page's h1). */
  headingLevel?: 2 | 3;
}) {
  const { story } = props;
  const Heading = props.headingLevel === 3 ? 'h3' : 'h2';
  const lang = storyLang(story.language);
  return (
    <article className={styles.card}>
      <Cover
        storyId={story.storyId}
        alt=""
        width={88}
        // 5.5rem, 6.5rem from 768 px (stories.module.css).
        sizes="(min-width: 768px) 104px, 88px"
        eager={props.eager}
        className={styles.cardCover}
      />
      <div className={styles.cardBody}>
        <Heading className={styles.cardTitle} lang={lang}>
          <Link to={detailsPath(story.storyId)} className={styles.stretched}>
            {story.title}
          </Link>
        </Heading>
        <p className={styles.author} lang={textLang(story.author.name)}>
          {story.author.name}
        </p>
        {/* Whole: the stylesheet clamps it to two lines, cut where a line breaks (never inside a
            letter cluster) and as long as the card is wide. Cutting it here took a grapheme
            segmenter, whose making was a long task of its own on a phone's first load. */}
        <p className={styles.cardDescription} lang={lang}>
          {story.description}
        </p>
        <StoryMeta reads={story.reads} rating={story.rating} parts={story.numberOfparts} />
        {story.membersOnly && <MembersBadge />}
      </div>
    </article>
  );
}

export function StoryCardSkeleton() {
  return (
    <div className={styles.card} aria-hidden="true">
      <span className={`${styles.cardCover} ${styles.coverSkeleton}`} />
      <div className={styles.cardBody}>
        <span className={styles.lineSkeleton} style={{ width: '70%' }} />
        <span className={styles.lineSkeleton} style={{ width: '40%' }} />
        <span className={styles.lineSkeleton} />
        <span className={styles.lineSkeleton} style={{ width: '55%' }} />
      </div>
    </div>
  );
}
