import { Link } from 'react-router';
import type { MentionCandidate } from '@kathamala/domain';
import { communityPages } from './paths.ts';
import { textParts } from './rules.ts';
import styles from './community.module.css';

/**
 * A post's or comment's text: the people it mentions (as the server recorded them) link to
 * their page, http(s) addresses are links that open apart and tell search engines nothing,
 * everything else is text nodes. Nothing the writer typed is ever read as markup.
 */
export function PostText(props: {
  text: string;
  mentions: readonly MentionCandidate[];
  lang?: string;
  className?: string;
}) {
  return (
    <p className={props.className ?? styles.text} lang={props.lang}>
      {textParts(props.text, props.mentions).map((part, i) =>
        part.kind === 'mention' ? (
          <Link key={i} to={communityPages.profile(part.userId)} className={styles.mention}>
            {part.text}
          </Link>
        ) : part.kind === 'link' ? (
          <a key={i} href={part.href} rel="nofollow ugc noopener noreferrer" target="_blank">
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </p>
  );
}
