import { useEffect, useId, useRef, useState } from 'react';
import { COMMUNITY, type Post } from '@kathamala/domain';
import { isApiError } from '../../api/client.ts';
import { useI18n } from '../../i18n/index.tsx';
import { CommentBox } from '../comments/CommentBox.tsx';
import { createPost, deleteDraftImage, uploadImage } from './api.ts';
import { canSendPost, pickImages, type ImageRefusal } from './rules.ts';
import { Feedback } from './Feedback.tsx';
import styles from './community.module.css';

/** An image chosen for the post: its preview at once, its id once the upload is done. */
interface Draft {
  key: number;
  preview: string;
  imageId: number | null;
  failed: boolean;
}

let nextKey = 1;

/**
 * The box a reader writes a post in: text with @mentions of their followers and Singlish typing
 * (the comment box's), up to four images uploaded as they are chosen, with previews and Remove.
 * A post of a new account waits for review, and the composer says so.
 */
export function Composer(props: {
  viewerId: number;
  /** Who may be mentioned: the viewer's followers. */
  people: () => { userId: number; username: string }[];
  onPosted: (post: Post) => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [refusals, setRefusals] = useState<ImageRefusal[]>([]);
  const [note, setNote] = useState('');
  const [uploadError, setUploadError] = useState('');
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const uploading = drafts.some((d) => d.imageId === null && !d.failed);
  const ready = drafts.filter((d) => d.imageId !== null);

  // Previews are object URLs: let them go with the composer.
  const previews = useRef(new Set<string>());
  useEffect(() => {
    const kept = previews.current;
    return () => kept.forEach((url) => URL.revokeObjectURL(url));
  }, []);

  const choose = (files: FileList | null) => {
    if (!files) return;
    const { taken, refused } = pickImages(drafts.length, Array.from(files));
    setRefusals(refused);
    setNote('');
    setUploadError('');
    for (const file of taken) {
      const key = nextKey++;
      const preview = URL.createObjectURL(file);
      previews.current.add(preview);
      setDrafts((list) => [...list, { key, preview, imageId: null, failed: false }]);
      // One upload at a time: a phone's uplink is shared, and the first image is ready sooner.
      queue.current = queue.current.then(() =>
        uploadImage('post', 'new', file, file.name).then(
          ({ image }) =>
            setDrafts((list) =>
              list.map((d) => (d.key === key ? { ...d, imageId: image.imageId } : d)),
            ),
          (e: unknown) => {
            setDrafts((list) => list.filter((d) => d.key !== key));
            setUploadError(isApiError(e) && e.message ? e.message : t('common.error'));
          },
        ),
      );
    }
    if (input.current) input.current.value = '';
  };

  const remove = (draft: Draft) => {
    setDrafts((list) => list.filter((d) => d.key !== draft.key));
    if (draft.imageId !== null) void deleteDraftImage(draft.imageId).catch(() => {});
  };

  const submit = async (text: string) => {
    const { post } = await createPost(
      text,
      ready.map((d) => d.imageId!),
    );
    setDrafts([]);
    setRefusals([]);
    setNote(post.status === 'pending' ? t('composer.held') : t('composer.posted'));
    props.onPosted(post);
  };

  const refusalText = (r: ImageRefusal) =>
    r.kind === 'tooMany'
      ? t('composer.tooManyImages', { n: r.max })
      : r.kind === 'notImage'
        ? t('composer.notImage', { name: r.name })
        : t('composer.tooBig', { name: r.name, mb: r.mb });

  const images = (
    <>
      {drafts.length > 0 && (
        <ul className={styles.drafts}>
          {drafts.map((d, i) => (
            <li key={d.key} className={styles.draft} aria-busy={d.imageId === null || undefined}>
              <img src={d.preview} alt={t('composer.imagePreview', { n: i + 1 })} />
              <button
                type="button"
                className={styles.draftRemove}
                aria-label={t('composer.removeImage', { n: i + 1 })}
                onClick={() => remove(d)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <Feedback error={uploadError} />
      {refusals.map((r, i) => (
        <p key={i} className={styles.error} role="alert">
          {refusalText(r)}
        </p>
      ))}
    </>
  );

  const tools = (
    <span className={styles.addImages}>
      <input
        ref={input}
        id={`${id}-images`}
        type="file"
        accept="image/jpeg,image/png,image/webp"
        multiple
        className="visually-hidden"
        disabled={drafts.length >= COMMUNITY.imagesPerPost}
        onChange={(e) => choose(e.target.files)}
      />
      <label htmlFor={`${id}-images`} className={styles.quiet}>
        {t('composer.addImages')}
      </label>
      <span className={styles.hint}>
        {t('composer.imagesHint', { n: COMMUNITY.imagesPerPost })}
      </span>
    </span>
  );

  return (
    <section className={styles.composer} aria-label={t('composer.label')}>
      <CommentBox
        label={t('composer.label')}
        placeholder={t('composer.placeholder')}
        submitLabel={t('composer.send')}
        people={props.people}
        viewerId={props.viewerId}
        maxChars={COMMUNITY.postChars}
        canSend={(text) => !uploading && canSendPost(text, ready.length)}
        below={images}
        tools={tools}
        onSubmit={submit}
      />
      {note && (
        <p className={styles.note} role="status">
          {note}
        </p>
      )}
    </section>
  );
}
