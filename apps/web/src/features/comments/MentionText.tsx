import { Link } from 'react-router';
import { apiPaths, mentionParts, type Mentioned } from '@kathamala/domain';
import styles from './comments.module.css';

/** Where a mention of someone leads: their author page if they write, else their profile. */
export const mentionHref = (person: Mentioned): string =>
  person.authorId === null
    ? apiPaths.profilePage(person.userId)
    : apiPaths.authorPage(person.authorId);

/**
 * A posted comment's text with each '@name' of someone it mentions (as the server recorded) as
 * a link to that person. Everything is text nodes and elements made here: nothing the writer
 * typed is ever read as markup.
 */
export function MentionText({ text, mentions }: { text: string; mentions: Mentioned[] }) {
  if (mentions.length === 0) return <>{text}</>;
  const byId = new Map(mentions.map((m) => [m.userId, m]));
  return (
    <>
      {mentionParts(text, mentions).map((part, i) => {
        const person = part.userId === undefined ? undefined : byId.get(part.userId);
        return person ? (
          <Link key={i} to={mentionHref(person)} className={styles.mention}>
            {part.text}
          </Link>
        ) : (
          part.text
        );
      })}
    </>
  );
}
