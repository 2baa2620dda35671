import { useId, useState } from 'react';
import { Link } from 'react-router';
import { detailsPath } from '@kathamala/domain';
import { useI18n } from '../../i18n/index.tsx';
import type { ServerState } from './autosave.ts';
import { NoticeLine } from './EditorBits.tsx';
import type { EpisodeActionsState } from './useEpisodeActions.ts';
import { nextHourInput, toLocalInput } from './when.ts';
import ui from '../../components/ui.module.css';
import styles from './publish.module.css';

/**
 * The editor's foot: the last action's notice, the buttons the episode's status offers, the
 * schedule form and delete (asked twice).
 */
export function EpisodeActions(props: {
  storyId: number;
  server: ServerState;
  actions: EpisodeActionsState;
}) {
  const { server, actions } = props;
  const [scheduling, setScheduling] = useState(false);
  // Kept while the form is closed and opened again; starts at the episode's time on opening.
  const [when, setWhen] = useState(() => toLocalInput(server.publishAt) || nextHourInput());
  const toggleSchedule = () => setScheduling((s) => !s);
  return (
    <>
      {actions.notice && <NoticeLine notice={actions.notice} />}
      <div className={styles.actions}>
        <StatusButtons
          storyId={props.storyId}
          server={server}
          actions={actions}
          scheduling={scheduling}
          onToggleSchedule={toggleSchedule}
        />
      </div>
      {scheduling && (
        <ScheduleForm
          when={when}
          onWhen={setWhen}
          busy={actions.busy}
          onSchedule={() =>
            void actions.schedule(when).then((ok) => {
              if (ok) setScheduling(false);
            })
          }
        />
      )}
      <DeleteEpisode
        live={server.status === 'published'}
        busy={actions.busy}
        onDelete={() => void actions.remove()}
      />
    </>
  );
}

/** The buttons for where the episode stands: draft, scheduled or live. */
function StatusButtons(props: {
  storyId: number;
  server: ServerState;
  actions: EpisodeActionsState;
  scheduling: boolean;
  onToggleSchedule: () => void;
}) {
  const { t } = useI18n();
  const { server, actions } = props;
  const { busy } = actions;
  const publishNow = () => void actions.publishNow();
  const saveNow = () => void actions.saveNow();
  const unpublish = () => void actions.unpublish();

  if (server.status === 'draft')
    return (
      <>
        <button type="button" className={ui.button} disabled={busy} onClick={publishNow}>
          {t('publish.publishNow')}
        </button>
        <button
          type="button"
          className={ui.buttonSecondary}
          disabled={busy}
          aria-expanded={props.scheduling}
          onClick={props.onToggleSchedule}
        >
          {t('publish.schedule')}
        </button>
        <button type="button" className={ui.buttonSecondary} disabled={busy} onClick={saveNow}>
          {t('publish.saveDraft')}
        </button>
      </>
    );
  if (server.status === 'scheduled')
    return (
      <>
        <button type="button" className={ui.button} disabled={busy} onClick={saveNow}>
          {t('publish.saveChanges')}
        </button>
        <button type="button" className={ui.buttonSecondary} disabled={busy} onClick={publishNow}>
          {t('publish.publishNow')}
        </button>
        <button
          type="button"
          className={ui.buttonSecondary}
          disabled={busy}
          aria-expanded={props.scheduling}
          onClick={props.onToggleSchedule}
        >
          {t('publish.reschedule')}
        </button>
        <button type="button" className={ui.buttonQuiet} disabled={busy} onClick={unpublish}>
          {t('publish.toDraft')}
        </button>
      </>
    );
  return (
    <>
      <button type="button" className={ui.button} disabled={busy} onClick={saveNow}>
        {t('publish.update')}
      </button>
      {server.partNumber && (
        <Link className={ui.buttonSecondary} to={detailsPath(props.storyId, server.partNumber)}>
          {t('publish.readIt')}
        </Link>
      )}
      <button type="button" className={ui.buttonQuiet} disabled={busy} onClick={unpublish}>
        {t('publish.unpublish')}
      </button>
    </>
  );
}

/** The date-time to publish at, typed in local time. */
function ScheduleForm(props: {
  when: string;
  onWhen: (when: string) => void;
  busy: boolean;
  onSchedule: () => void;
}) {
  const { t } = useI18n();
  const id = useId();
  return (
    <div className={styles.schedule}>
      <div className={ui.field}>
        <label className={ui.label} htmlFor={`${id}-when`}>
          {t('publish.publishAt')}
        </label>
        <input
          id={`${id}-when`}
          type="datetime-local"
          className={ui.input}
          value={props.when}
          min={toLocalInput(new Date().toISOString())}
          onChange={(e) => props.onWhen(e.target.value)}
        />
        <span className={ui.hint}>{t('publish.publishAtHint')}</span>
      </div>
      <button type="button" className={ui.button} disabled={props.busy} onClick={props.onSchedule}>
        {t('publish.scheduleConfirm')}
      </button>
    </div>
  );
}

/** Delete, with a second question first; a live episode's question says readers lose it. */
function DeleteEpisode(props: { live: boolean; busy: boolean; onDelete: () => void }) {
  const { t } = useI18n();
  const id = useId();
  const [confirming, setConfirming] = useState(false);
  return (
    <div className={styles.danger}>
      {confirming ? (
        <div className={styles.confirm} role="alertdialog" aria-labelledby={`${id}-del`}>
          <p id={`${id}-del`}>
            {props.live ? t('publish.deleteLiveConfirm') : t('publish.deleteConfirm')}
          </p>
          <button
            type="button"
            className={styles.dangerButton}
            disabled={props.busy}
            onClick={props.onDelete}
          >
            {t('publish.deleteYes')}
          </button>
          <button type="button" className={ui.buttonQuiet} onClick={() => setConfirming(false)}>
            {t('publish.cancel')}
          </button>
        </div>
      ) : (
        <button
          type="button"
          className={styles.deleteLink}
          disabled={props.busy}
          onClick={() => setConfirming(true)}
        >
          {t('publish.delete')}
        </button>
      )}
    </div>
  );
}
