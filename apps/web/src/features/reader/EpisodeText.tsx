import { memo } from 'react';
import { toParagraphs } from './rules.ts';
import styles from './reader.module.css';

/** An episode's text as paragraphs, in the story's language. */
export const EpisodeText = memo(function EpisodeText(props: {
  content: string;
  lang: 'si' | 'en';
}) {
  return (
    <div className={styles.text} lang={props.lang} data-episode-text="">
      {toParagraphs(props.content).map((p, i) => (
        <p key={i}>{p}</p>
      ))}
    </div>
  );
});
