/**
 * What the editor's buttons do: publish now, save (as it stands), schedule, back to draft,
 * delete. Each one says how it went in a notice; `busy` holds the buttons while one runs.
 */
import { useState } from 'react';
import { detailsPath, type EpisodeStatus, type OwnStory } from '@kathamala/domain';
import type { SavedEpisode } from '../../api/authoring.ts';
import { useI18n } from '../../i18n/index.tsx';
import type { EditorNotice } from './EditorBits.tsx';
import { messageOf } from './episodeChecks.ts';
import type { EpisodeAutosave } from './useEpisodeAutosave.ts';
import { formatWhen, fromLocalInput } from './when.ts';

/** The editor's actions and the notice the last one left. */
export interface EpisodeActionsState {
  notice: EditorNotice | null;
  busy: boolean;
  publishNow: () => Promise<void>;
  /** Saves the text keeping the status: Save draft, Save changes, Update (and Ctrl+S). */
  saveNow: () => Promise<void>;
  /** Schedules for a date-time input's value; true once the episode is scheduled. */
  schedule: (when: string) => Promise<boolean>;
  unpublish: () => Promise<void>;
  remove: () => Promise<void>;
}

/** The editor's actions on top of its saving; `onClosed` hears that the episode is deleted. */
export function useEpisodeActions(props: {
  story: OwnStory;
  autosave: Pick<EpisodeAutosave, 'save' | 'remove'>;
  onClosed: (notice?: EditorNotice) => void;
}): EpisodeActionsState {
  const { t } = useI18n();
  const { story, autosave, onClosed } = props;
  const [notice, setNotice] = useState<EditorNotice | null>(null);
  const [busy, setBusy] = useState(false);

  /** Saves with the status given (none: as it stands); the success notice comes from the answer. */
  const act = async (
    target: { status: EpisodeStatus; publishAt: string | null } | undefined,
    success: (answer: SavedEpisode) => EditorNotice,
  ): Promise<boolean> => {
    setNotice(null);
    setBusy(true);
    const outcome = await autosave.save(target);
    setBusy(false);
    setNotice(outcome.ok ? success(outcome.answer) : { kind: 'error', text: outcome.message });
    return outcome.ok;
  };

  const readLink = (n: number | null) =>
    n ? { to: detailsPath(story.storyId, n), label: t('publish.readIt') } : undefined;

  const publishNow = async () => {
    await act({ status: 'published', publishAt: null }, (a) => ({
      kind: 'success',
      text: a.partNumber
        ? t('publish.publishedAs', { n: a.partNumber })
        : t('publish.publishedUpcoming'),
      link: story.status === 'public' || a.partNumber ? readLink(a.partNumber) : undefined,
    }));
  };

  const saveNow = async () => {
    await act(undefined, (a) => ({
      kind: 'success',
      text:
        a.status === 'published'
          ? t('publish.updatedLive', { n: a.partNumber ?? '' })
          : a.status === 'scheduled'
            ? t('publish.scheduledFor', { when: formatWhen(a.publishAt) })
            : t('publish.savedDraft'),
    }));
  };

  const schedule = async (when: string) => {
    const iso = fromLocalInput(when);
    if (!iso || Date.parse(iso) <= Date.now()) {
      setNotice({ kind: 'error', text: t('publish.scheduleFuture') });
      return false;
    }
    return act({ status: 'scheduled', publishAt: iso }, (a) => ({
      kind: 'success',
      text: t('publish.scheduledFor', { when: formatWhen(a.publishAt) }),
    }));
  };

  const unpublish = async () => {
    await act({ status: 'draft', publishAt: null }, (a) => ({
      kind: 'success',
      text: a.partNumber ? t('publish.unpublished', { n: a.partNumber }) : t('publish.backToDraft'),
    }));
  };

  const remove = async () => {
    setBusy(true);
    setNotice(null);
    try {
      await autosave.remove();
      onClosed({ kind: 'success', text: t('publish.deleted') });
    } catch (error) {
      setBusy(false);
      setNotice({ kind: 'error', text: messageOf(error, t) });
    }
  };

  return { notice, busy, publishNow, saveNow, schedule, unpublish, remove };
}
