import type { ReactNode } from 'react';
import { episodeFooter, type OwnStory } from '@kathamala/domain';
import { useI18n } from '../../i18n/index.tsx';
import { EpisodeText } from '../reader/EpisodeText.tsx';
import { hasText } from './episodeChecks.ts';
import ui from '../../components/ui.module.css';
import reader from '../reader/reader.module.css';
import styles from './publish.module.css';

/** The episode as a reader will see it: number, title, text and the end line. */
export function EpisodePreview(props: {
  story: OwnStory;
  title: string;
  content: string;
  partNumber: number | null;
  lang: 'si' | 'en';
}) {
  const { t } = useI18n();
  const { story, partNumber } = props;
  // Not out yet: it will be the next episode, and the last one so far.
  const n = partNumber ?? story.numberOfparts + 1;
  const total = partNumber ? story.numberOfparts : n;
  const footer = episodeFooter(story, n >= total);
  let body: ReactNode = <EpisodeText content={props.content} lang={props.lang} />;
  if (!hasText(props.content)) body = <p className={ui.hint}>{t('publish.previewEmpty')}</p>;
  return (
    <section className={`${reader.reading} ${styles.preview}`} aria-label={t('publish.preview')}>
      <header className={reader.episodeHeader}>
        <p className={reader.episodeNumber}>{t('details.episodeOf', { n, total })}</p>
        {props.title.trim() && (
          <h2 className={reader.episodeTitle} lang={props.lang}>
            {props.title.trim()}
          </h2>
        )}
      </header>
      {body}
      {footer && (
        <p className={reader.footer} lang={props.lang}>
          {footer}
        </p>
      )}
    </section>
  );
}
