import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { AUTHORING, coverUrl } from '@kathamala/domain';
import { uploadCover } from '../../api/authoring.ts';
import { isApiError } from '../../api/client.ts';
import { useConfig } from '../../config.tsx';
import { useI18n } from '../../i18n/index.tsx';
import ui from '../../components/ui.module.css';
import styles from './publish.module.css';

const ACCEPTED = ['image/jpeg', 'image/png', 'image/webp'];
const COVER_PREFIX = 'kathamala:cover:';

// Covers are cached by browsers for an hour: after an upload this browser asks for the new one
// by an address with a version in it (the server's, else the upload time), kept across reloads
// so the author never sees the old cover again.
const listeners = new Set<() => void>();
const uploadedCover = (storyId: number): string | null => {
  try {
    return localStorage.getItem(COVER_PREFIX + storyId);
  } catch {
    return null;
  }
};
const rememberCover = (storyId: number, src: string): void => {
  try {
    localStorage.setItem(COVER_PREFIX + storyId, src);
  } catch {
    // Without storage the old cover may show until the browser's cache lets it go.
  }
  listeners.forEach((l) => l());
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The cover address this browser should show for one of the author's stories. */
export function useCoverSrc(storyId: number): string {
  const { imagesHost } = useConfig();
  const uploaded = useSyncExternalStore(
    subscribe,
    () => uploadedCover(storyId),
    () => null,
  );
  return uploaded ?? coverUrl(imagesHost, storyId);
}

/** The story's cover with a picker: preview of the chosen image, then upload. */
export function CoverPanel(props: { storyId: number; title: string }) {
  const { t } = useI18n();
  const id = useId();
  const { imagesHost } = useConfig();
  const current = useCoverSrc(props.storyId);
  const [file, setFile] = useState<File | null>(null);
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [inputKey, setInputKey] = useState(0);

  useEffect(() => {
    if (!file) {
      setPreviewUrl(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreviewUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const choose = (chosen: File | undefined) => {
    setMessage(null);
    if (!chosen) {
      setFile(null);
      return;
    }
    if (!ACCEPTED.includes(chosen.type)) {
      setFile(null);
      setMessage({ ok: false, text: t('publish.coverType') });
      return;
    }
    if (chosen.size > AUTHORING.coverBytes) {
      setFile(null);
      setMessage({
        ok: false,
        text: t('publish.coverTooBig', { mb: AUTHORING.coverBytes / 1024 / 1024 }),
      });
      return;
    }
    setFile(chosen);
  };

  const upload = async () => {
    if (!file) return;
    setBusy(true);
    setMessage(null);
    try {
      const { cover } = await uploadCover(props.storyId, file, file.name);
      const base = coverUrl(imagesHost, props.storyId);
      rememberCover(props.storyId, cover ?? `${base}?v=${Date.now()}`);
      setFile(null);
      setInputKey((k) => k + 1);
      setMessage({ ok: true, text: t('publish.coverDone') });
    } catch (error) {
      setMessage({
        ok: false,
        text:
          isApiError(error) && error.status === 0
            ? t('publish.offlineAction')
            : isApiError(error) && error.message
              ? error.message
              : t('common.error'),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={styles.coverPanel}>
      <img
        className={styles.coverImage}
        src={previewUrl ?? current}
        alt={previewUrl ? t('publish.coverPreview') : t('story.cover', { title: props.title })}
        width={120}
        height={180}
      />
      <div className={styles.coverControls}>
        <label className={ui.label} htmlFor={`${id}-cover`}>
          {t('publish.coverLabel')}
        </label>
        <input
          key={inputKey}
          id={`${id}-cover`}
          className={styles.fileInput}
          type="file"
          accept={ACCEPTED.join(',')}
          aria-describedby={`${id}-cover-hint`}
          onChange={(e) => choose(e.target.files?.[0])}
        />
        <span id={`${id}-cover-hint`} className={ui.hint}>
          {t('publish.coverHint', { mb: AUTHORING.coverBytes / 1024 / 1024 })}
        </span>
        {file && (
          <button type="button" className={ui.button} disabled={busy} onClick={() => void upload()}>
            {busy ? t('publish.uploading') : t('publish.uploadCover')}
          </button>
        )}
        {message && (
          <p
            className={message.ok ? styles.okText : ui.fieldError}
            role={message.ok ? 'status' : 'alert'}
          >
            {message.text}
          </p>
        )}
      </div>
    </div>
  );
}
