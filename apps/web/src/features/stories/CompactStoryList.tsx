import { Link } from 'react-router';
import { detailsPath, type StoryListItem } from '@kathamala/domain';
import { Cover } from '../../components/Cover.tsx';
import ui from '../../components/ui.module.css';
import { storyLang, textLang } from './lang.ts';
import { MembersBadge, StoryMeta } from './StoryMeta.tsx';
import styles from './stories.module.css';

/** A titled side list of stories (premium, more by an author); renders nothing when empty. */
export function CompactStoryList(props: {
  id: string;
  title: string;
  titleLang?: string;
  /** Makes the heading a link (the author's page for 'More by {name}'). */
  titleHref?: string;
  stories: StoryListItem[];
}) {
  if (props.stories.length === 0) return null;
  return (
    <section className={styles.side} aria-labelledby={props.id}>
      <h2 id={props.id} className={ui.sectionTitle} lang={props.titleLang}>
        {props.titleHref ? (
          <Link to={props.titleHref} className={styles.titleLink}>
            {props.title}
          </Link>
        ) : (
          props.title
        )}
      </h2>
      <ul className={styles.compactList}>
        {props.stories.map((story) => {
          const lang = storyLang(story.language);
          return (
            <li key={story.storyId} className={styles.compactItem}>
              <Cover storyId={story.storyId} alt="" width={56} className={styles.compactCover} />
              <div className={styles.compactBody}>
                <h3 className={styles.compactTitle} lang={lang}>
                  <Link to={detailsPath(story.storyId)} className={styles.stretched}>
                    {story.title}
                  </Link>
                </h3>
                <p className={styles.author} lang={textLang(story.author.name)}>
                  {story.author.name}
                </p>
                <StoryMeta reads={story.reads} rating={story.rating} />
                {story.membersOnly && <MembersBadge />}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
