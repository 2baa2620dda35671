import { Link } from 'react-router';
import type { EpisodeStatus } from '@kathamala/domain';
import { useI18n } from '../../i18n/index.tsx';
import { saveStateText, type SaveState, type ServerState } from './autosave.ts';
import { formatWhen } from './when.ts';
import ui from '../../components/ui.module.css';
import styles from './publish.module.css';

/** A one-line message after an action, with an optional link (e.g. to the episode). */
export interface EditorNotice {
  kind: 'success' | 'error';
  text: string;
  link?: { to: string; label: string };
}

const STATUS_CLASS: Record<EpisodeStatus, string | undefined> = {
  draft: styles.statusDraft,
  scheduled: styles.statusScheduled,
  published: styles.statusPublished,
};

/** An episode's status as a coloured label. */
export function StatusBadge({ status }: { status: EpisodeStatus }) {
  const { t } = useI18n();
  return (
    <span className={`${styles.status} ${STATUS_CLASS[status] ?? ''}`}>
      {t(`publish.status.${status}`)}
    </span>
  );
}

/** A notice: announced politely when it is good news, at once when it is an error. */
export function NoticeLine({ notice }: { notice: EditorNotice }) {
  return (
    <div
      className={notice.kind === 'success' ? ui.noticeSuccess : ui.noticeError}
      role={notice.kind === 'success' ? 'status' : 'alert'}
    >
      <p>
        {notice.text}
        {notice.link && (
          <>
            {' '}
            <Link to={notice.link.to}>{notice.link.label}</Link>
          </>
        )}
      </p>
    </div>
  );
}

/** The editor's top line: status, number, when it goes out, and how saving goes. */
export function EditorHead(props: {
  server: ServerState;
  saveState: SaveState;
  dirty: boolean;
  localOk: boolean;
}) {
  const { t } = useI18n();
  const { server, saveState } = props;
  return (
    <div className={styles.editorHead}>
      <p className={styles.episodeState}>
        <StatusBadge status={server.status} />
        {server.partNumber && <span>{t('publish.episodeNumber', { n: server.partNumber })}</span>}
        {server.status === 'scheduled' && server.publishAt && (
          <span>{t('publish.goesOut', { when: formatWhen(server.publishAt) })}</span>
        )}
      </p>
      <p className={styles.saveState} role="status" data-save-state={saveState.kind}>
        {saveStateText(saveState, props.dirty, server.status, props.localOk, t)}
      </p>
    </div>
  );
}

/** Says the editor opened this browser's newer copy; the author keeps it or goes back. */
export function RestoredNote(props: { onKeep: () => void; onDiscard: () => void }) {
  const { t } = useI18n();
  return (
    <div className={styles.restored} role="note">
      <p>{t('publish.restored')}</p>
      <button type="button" className={ui.buttonQuiet} onClick={props.onKeep}>
        {t('publish.keepRestored')}
      </button>
      <button type="button" className={ui.buttonQuiet} onClick={props.onDiscard}>
        {t('publish.discardRestored')}
      </button>
    </div>
  );
}
