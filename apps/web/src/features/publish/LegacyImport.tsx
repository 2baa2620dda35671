import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  AUTHORING,
  graphemes,
  isLegacySinhala,
  legacyToUnicode,
  type OwnStory,
} from '@kathamala/domain';
import { refreshAuthoring, saveEpisode } from '../../api/authoring.ts';
import { isApiError } from '../../api/client.ts';
import { useI18n } from '../../i18n/index.tsx';
import { storyLang } from '../stories/lang.ts';
import { decodeText, episodeMarker, splitEpisodes, type ImportedEpisode } from './legacyImport.ts';
import ui from '../../components/ui.module.css';
import styles from './publish.module.css';

const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** The text of an uploaded document: .docx through mammoth (loaded only then), else text. */
async function readDocument(file: File): Promise<string> {
  const bytes = await file.arrayBuffer();
  if (/\.docx$/i.test(file.name)) {
    const mod = (await import('mammoth/mammoth.browser.js')) as unknown as {
      default?: typeof import('mammoth/mammoth.browser.js');
    } & typeof import('mammoth/mammoth.browser.js');
    const mammoth = mod.default ?? mod;
    return (await mammoth.extractRawText({ arrayBuffer: bytes })).value;
  }
  return decodeText(bytes);
}

type Phase =
  | { kind: 'idle' }
  | { kind: 'reading' }
  | { kind: 'error'; message: string }
  | { kind: 'saving'; done: number }
  | { kind: 'saved'; n: number };

/**
 * Import a whole document (a .txt or .docx upload, or pasted text) as draft episodes: legacy
 * FM Abhaya text becomes Unicode Sinhala, the text is cut at "Episode 2" / "කොටස 2" / "***"
 * lines, the author checks the titles, and each is saved through the ordinary episode call as
 * a draft to review before publishing. Loaded only when opened.
 */
export default function LegacyImport(props: { story: OwnStory; onClose: () => void }) {
  const { t } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const lang = storyLang(props.story.language);
  const [text, setText] = useState('');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [episodes, setEpisodes] = useState<ImportedEpisode[] | null>(null);
  const [wasLegacy, setWasLegacy] = useState(false);

  const defaultTitle = (n: number) => (lang === 'si' ? `කොටස ${n}` : `Episode ${n}`);

  const makeEpisodes = (raw: string) => {
    const legacy = isLegacySinhala(raw);
    // Marker lines typed in Latin letters ("Episode 2", "***") stay as they are: converted, the
    // asterisks would become Sinhala letters. A "කොටස 2" typed in FM Abhaya shows up converted.
    const unicode = legacy
      ? raw
          .split(/\r?\n/)
          .map((line) => (episodeMarker(line) ? line : legacyToUnicode(line)))
          .join('\n')
      : raw;
    setWasLegacy(legacy);
    const found = splitEpisodes(unicode, defaultTitle).map((e) => ({
      ...e,
      title: graphemes(e.title).slice(0, AUTHORING.titleMaxChars).join(''),
    }));
    setEpisodes(found);
    setPhase(found.length ? { kind: 'idle' } : { kind: 'error', message: t('legacy.empty') });
  };

  const choose = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setPhase({
        kind: 'error',
        message: t('legacy.tooBig', { mb: MAX_FILE_BYTES / 1024 / 1024 }),
      });
      return;
    }
    setPhase({ kind: 'reading' });
    try {
      const raw = await readDocument(file);
      setText(raw);
      makeEpisodes(raw);
    } catch {
      setPhase({ kind: 'error', message: t('legacy.readFailed') });
    }
  };

  const save = async () => {
    if (!episodes) return;
    for (const [i, e] of episodes.entries()) {
      setPhase({ kind: 'saving', done: i });
      try {
        await saveEpisode({
          storyId: props.story.storyId,
          title: e.title.trim() || defaultTitle(i + 1),
          content: e.content,
          status: 'draft',
        });
      } catch (err) {
        const message = isApiError(err) && err.message ? err.message : t('common.error');
        setPhase({ kind: 'error', message: t('legacy.saveFailed', { n: i + 1, message }) });
        // The ones saved so far stay: drop them from the list so a retry does not double them.
        setEpisodes(episodes.slice(i));
        await refreshAuthoring(client, props.story.storyId);
        return;
      }
    }
    setPhase({ kind: 'saved', n: episodes.length });
    setEpisodes(null);
    setText('');
    await refreshAuthoring(client, props.story.storyId);
  };

  const busy = phase.kind === 'reading' || phase.kind === 'saving';

  return (
    <section className={styles.importPanel} aria-labelledby={`${id}-title`}>
      <div className={styles.sectionHead}>
        <h3 id={`${id}-title`} className={styles.panelTitle}>
          {t('legacy.title')}
        </h3>
        <button type="button" className={ui.buttonQuiet} onClick={props.onClose}>
          {t('legacy.cancel')}
        </button>
      </div>
      <p className={ui.hint}>{t('legacy.intro')}</p>
      <label className={ui.field}>
        <span className={ui.label}>{t('legacy.file')}</span>
        <input
          className={styles.fileInput}
          type="file"
          accept=".txt,.docx,text/plain,application/vnd.openxmlformats-officedocument.wordprocessingml.document"
          disabled={busy}
          onChange={(e) => void choose(e.target.files?.[0])}
        />
      </label>
      <label className={ui.field}>
        <span className={ui.label}>{t('legacy.paste')}</span>
        <textarea
          className={`${ui.input} ${styles.textarea}`}
          value={text}
          disabled={busy}
          onChange={(e) => {
            setText(e.target.value);
            setEpisodes(null);
          }}
        />
      </label>
      <div className={styles.actions}>
        <button
          type="button"
          className={ui.buttonSecondary}
          disabled={busy || !text.trim()}
          onClick={() => makeEpisodes(text)}
        >
          {t('legacy.split')}
        </button>
      </div>

      {phase.kind === 'reading' && <p role="status">{t('legacy.reading')}</p>}
      {phase.kind === 'error' && (
        <p className={ui.noticeError} role="alert">
          {phase.message}
        </p>
      )}
      {phase.kind === 'saved' && (
        <p className={ui.noticeSuccess} role="status">
          {t('legacy.saved', { n: phase.n })}
        </p>
      )}

      {episodes && episodes.length > 0 && (
        <div className={styles.importList}>
          <p role="status">
            {wasLegacy && <strong>{`${t('legacy.wasLegacy')} `}</strong>}
            {t('legacy.found', { n: episodes.length })}
          </p>
          <ol className={styles.importEpisodes}>
            {episodes.map((e, i) => (
              <li key={i} className={styles.importEpisode}>
                <label className={ui.field}>
                  <span className={ui.label}>{t('legacy.episodeTitle', { n: i + 1 })}</span>
                  <input
                    className={ui.input}
                    lang={lang}
                    value={e.title}
                    maxLength={AUTHORING.titleMaxChars * 4}
                    disabled={busy}
                    onChange={(ev) =>
                      setEpisodes(
                        episodes.map((x, j) => (j === i ? { ...x, title: ev.target.value } : x)),
                      )
                    }
                  />
                </label>
                <p className={styles.importExcerpt} lang={lang}>
                  {e.content.slice(0, 160)}
                  {e.content.length > 160 ? '…' : ''}
                </p>
              </li>
            ))}
          </ol>
          <button type="button" className={ui.button} disabled={busy} onClick={() => void save()}>
            {phase.kind === 'saving'
              ? t('legacy.saving', { done: phase.done + 1, n: episodes.length })
              : t('legacy.save', { n: episodes.length })}
          </button>
        </div>
      )}
    </section>
  );
}
