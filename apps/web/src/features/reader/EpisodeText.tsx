import { memo, type ReactNode } from 'react';
import { parseEpisodeHtml, type EpisodeRun } from '@kathamala/domain';
import styles from './reader.module.css';

/** One run as elements: plain text, text in <strong>/<em> as marked, or a line break. */
function renderRun(run: EpisodeRun, key: number): ReactNode {
  if (run.br) return <br key={key} />;
  if (run.bold && run.italic)
    return (
      <strong key={key}>
        <em>{run.text}</em>
      </strong>
    );
  if (run.bold) return <strong key={key}>{run.text}</strong>;
  if (run.italic) return <em key={key}>{run.text}</em>;
  // Plain runs are never adjacent (the parser merges them), so a bare string needs no key.
  return run.text;
}

/**
 * An episode's text in the story's language. The stored HTML is parsed into blocks and built
 * as React elements, never injected: nothing an author typed can run in a reader's page.
 * `opening`: only the first words of part 1 (a visitor's preview), which fade out to the wall.
 */
export const EpisodeText = memo(function EpisodeText(props: {
  content: string;
  lang: 'si' | 'en';
  opening?: boolean;
}) {
  const mark = props.opening ? { 'data-opening': '' } : { 'data-episode-text': '' };
  return (
    <div
      className={props.opening ? `${styles.text} ${styles.opening}` : styles.text}
      lang={props.lang}
      {...mark}
    >
      {parseEpisodeHtml(props.content).map((block, i) =>
        block.type === 'break' ? (
          <hr key={i} className={styles.sceneBreak} />
        ) : (
          <p key={i}>{block.runs.map(renderRun)}</p>
        ),
      )}
    </div>
  );
});
