import { useId, useState, type FormEvent } from 'react';
import {
  AUTHORING,
  type Language,
  type OwnStory,
  type StoryInput,
  type UiLang,
} from '@kathamala/domain';
import { saveStory } from '../../api/authoring.ts';
import { isApiError } from '../../api/client.ts';
import { useCategories } from '../../api/queries.ts';
import { useI18n, type Translate } from '../../i18n/index.tsx';
import { storyLang } from '../stories/lang.ts';
import { fromLocalInput, toLocalInput } from './when.ts';
import ui from '../../components/ui.module.css';
import page from '../../components/page.module.css';
import styles from './publish.module.css';

type Kind = 0 | 2 | 3;
type Field = 'title' | 'description' | 'category' | 'releaseDate' | 'series';
type Errors = Partial<Record<Field, string>>;

interface FormValues {
  title: string;
  description: string;
  language: Language;
  kind: Kind;
  category: string;
  membersOnly: boolean;
  ongoing: boolean;
  releaseDate: string;
  /** '' none, 's:{seriesId}' next season of that series, 'o:{storyId}' start one with that story. */
  series: string;
}

const initialValues = (story: OwnStory | null): FormValues => ({
  title: story?.title ?? '',
  description: story?.description ?? '',
  language: story?.language ?? 'sinhala',
  kind: story?.kind ?? 0,
  category: story?.category ?? '',
  membersOnly: story?.membersOnly ?? false,
  ongoing: story?.ongoing ?? true,
  releaseDate: toLocalInput(story?.releaseDate),
  series: '',
});

const codePoints = (s: string) => [...s].length;

function validate(v: FormValues, t: Translate): Errors {
  const errors: Errors = {};
  const title = v.title.trim();
  if (!title || codePoints(title) > AUTHORING.titleMaxChars)
    errors.title = t('publish.storyTitleRule', { max: AUTHORING.titleMaxChars });
  if (codePoints(v.description) > AUTHORING.descriptionChars)
    errors.description = t('publish.descriptionRule', { max: AUTHORING.descriptionChars });
  if (!v.category) errors.category = t('publish.categoryRule');
  if (v.releaseDate && !fromLocalInput(v.releaseDate)) errors.releaseDate = t('publish.dateRule');
  return errors;
}

// The server names the field in its message: show it beside that field.
const FIELD_WORDS: [Field, RegExp][] = [
  ['title', /title/i],
  ['description', /description/i],
  ['category', /categor/i],
  ['releaseDate', /release/i],
  ['series', /series|season/i],
];
const fieldOf = (message: string): Field | null =>
  FIELD_WORDS.find(([, re]) => re.test(message))?.[0] ?? null;

/** The input for the server: everything on create; on update only what changed. */
function toInput(v: FormValues, story: OwnStory | null): StoryInput {
  const all: StoryInput = {
    title: v.title.trim(),
    description: v.description.trim(),
    language: v.language,
    kind: v.kind,
    category: v.category,
    membersOnly: v.membersOnly,
    ongoing: v.ongoing,
    releaseDate: v.releaseDate ? fromLocalInput(v.releaseDate) : null,
  };
  const series: StoryInput = v.series.startsWith('s:')
    ? { seriesId: Number(v.series.slice(2)) }
    : v.series.startsWith('o:')
      ? { seasonOf: Number(v.series.slice(2)) }
      : {};
  if (!story) {
    if (all.releaseDate === null) delete all.releaseDate;
    return { ...all, ...series };
  }
  const changed: StoryInput = { storyId: story.storyId, ...series };
  const was: Record<string, unknown> = {
    ...story,
    releaseDate: story.releaseDate ? fromLocalInput(toLocalInput(story.releaseDate)) : null,
  };
  for (const [key, value] of Object.entries(all) as [keyof StoryInput, unknown][]) {
    if (value !== was[key]) (changed as Record<string, unknown>)[key] = value;
  }
  return changed;
}

/** New story, or the details of one of the author's stories. */
export function StoryForm(props: {
  story: OwnStory | null;
  stories: OwnStory[];
  onSaved: (storyId: number, created: boolean) => void;
  onCancel: () => void;
}) {
  const { t, lang } = useI18n();
  const id = useId();
  const { story } = props;
  const categories = useCategories();
  const [values, setValues] = useState(() => initialValues(story));
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  const textLang = storyLang(values.language);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const found = validate(values, t);
    setErrors(found);
    setFailure(null);
    const first = Object.keys(found)[0];
    if (first) {
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    const input = toInput(values, story);
    if (story && Object.keys(input).length === 1) {
      props.onSaved(story.storyId, false);
      return;
    }
    setBusy(true);
    try {
      const { storyId } = await saveStory(input);
      props.onSaved(storyId, !story);
    } catch (error) {
      setBusy(false);
      const message =
        isApiError(error) && error.status === 0
          ? t('publish.offlineAction')
          : isApiError(error) && error.message
            ? error.message
            : t('common.error');
      const field = isApiError(error) && error.status === 400 ? fieldOf(message) : null;
      if (field) setErrors({ [field]: message });
      setFailure(message);
    }
  };

  const seriesOptions = seriesChoices(props.stories, story, t);

  const describedBy = (field: Field, hint?: boolean) =>
    [hint && `${id}-${field}-hint`, errors[field] && `${id}-${field}-error`]
      .filter(Boolean)
      .join(' ') || undefined;
  const errorLine = (field: Field) =>
    errors[field] && (
      <span id={`${id}-${field}-error`} className={ui.fieldError}>
        {errors[field]}
      </span>
    );

  return (
    <form
      method="post"
      className={styles.storyForm}
      onSubmit={onSubmit}
      noValidate
      aria-busy={busy || undefined}
    >
      <h2 className={styles.panelTitle}>
        {story ? t('publish.editStory') : t('publish.newStory')}
      </h2>

      <fieldset className={page.radioRow}>
        <legend className={`${ui.label} ${styles.legend}`}>{t('publish.language')}</legend>
        {(['sinhala', 'english'] as const).map((l) => (
          <label key={l} className={page.radio}>
            <input
              type="radio"
              name={`${id}-language`}
              value={l}
              checked={values.language === l}
              onChange={() => set('language', l)}
            />
            <span lang={l === 'sinhala' ? 'si' : 'en'}>{l === 'sinhala' ? 'සිංහල' : 'English'}</span>
          </label>
        ))}
      </fieldset>

      <div className={ui.field}>
        <label className={ui.label} htmlFor={`${id}-title`}>
          {t('publish.storyTitle')}
        </label>
        <input
          id={`${id}-title`}
          className={`${ui.input} ${styles.titleInput}`}
          lang={textLang}
          value={values.title}
          maxLength={AUTHORING.titleMaxChars}
          aria-invalid={errors.title ? true : undefined}
          aria-describedby={describedBy('title')}
          onChange={(e) => set('title', e.target.value)}
        />
        {errorLine('title')}
      </div>

      <div className={ui.field}>
        <label className={ui.label} htmlFor={`${id}-description`}>
          {t('publish.description')}
        </label>
        <textarea
          id={`${id}-description`}
          className={`${ui.input} ${styles.textarea}`}
          lang={textLang}
          rows={5}
          value={values.description}
          maxLength={AUTHORING.descriptionChars}
          aria-invalid={errors.description ? true : undefined}
          aria-describedby={describedBy('description', true)}
          onChange={(e) => set('description', e.target.value)}
        />
        <span id={`${id}-description-hint`} className={ui.hint}>
          {t('publish.descriptionHint', {
            n: codePoints(values.description),
            max: AUTHORING.descriptionChars,
          })}
        </span>
        {errorLine('description')}
      </div>

      <div className={styles.twoCols}>
        <div className={ui.field}>
          <label className={ui.label} htmlFor={`${id}-category`}>
            {t('publish.category')}
          </label>
          <select
            id={`${id}-category`}
            className={ui.input}
            value={values.category}
            aria-invalid={errors.category ? true : undefined}
            aria-describedby={describedBy('category')}
            onChange={(e) => set('category', e.target.value)}
          >
            <option value="">{t('publish.chooseCategory')}</option>
            {(categories.data ?? []).map((c) => (
              <option key={c.slug} value={c.slug}>
                {c.name[lang as UiLang] ?? c.name.en}
              </option>
            ))}
          </select>
          {errorLine('category')}
        </div>

        <div className={ui.field}>
          <label className={ui.label} htmlFor={`${id}-kind`}>
            {t('publish.kind')}
          </label>
          <select
            id={`${id}-kind`}
            className={ui.input}
            value={values.kind}
            aria-describedby={`${id}-kind-hint`}
            onChange={(e) => set('kind', Number(e.target.value) as Kind)}
          >
            <option value={0}>{t('publish.kind0')}</option>
            <option value={2}>{t('publish.kind2')}</option>
            <option value={3}>{t('publish.kind3')}</option>
          </select>
          <span className={ui.hint} id={`${id}-kind-hint`}>
            {t('publish.kindHint')}
          </span>
        </div>
      </div>

      <div className={styles.checks}>
        <label className={styles.check}>
          <input
            type="checkbox"
            checked={values.ongoing}
            onChange={(e) => set('ongoing', e.target.checked)}
          />
          {t('publish.ongoing')}
        </label>
        <label className={styles.check}>
          <input
            type="checkbox"
            checked={values.membersOnly}
            onChange={(e) => set('membersOnly', e.target.checked)}
          />
          {t('publish.membersOnly')}
        </label>
      </div>

      <div className={ui.field}>
        <label className={ui.label} htmlFor={`${id}-releaseDate`}>
          {t('publish.releaseDate')}
        </label>
        <input
          id={`${id}-releaseDate`}
          type="datetime-local"
          className={ui.input}
          value={values.releaseDate}
          aria-invalid={errors.releaseDate ? true : undefined}
          aria-describedby={describedBy('releaseDate', true)}
          onChange={(e) => set('releaseDate', e.target.value)}
        />
        <span id={`${id}-releaseDate-hint`} className={ui.hint}>
          {t('publish.releaseDateHint')}
        </span>
        {errorLine('releaseDate')}
      </div>

      {story?.seriesId ? (
        <p className={ui.hint}>{t('publish.inSeries', { n: story.season ?? 1 })}</p>
      ) : (
        seriesOptions.length > 0 && (
          <div className={ui.field}>
            <label className={ui.label} htmlFor={`${id}-series`}>
              {t('publish.series')}
            </label>
            <select
              id={`${id}-series`}
              className={ui.input}
              value={values.series}
              aria-invalid={errors.series ? true : undefined}
              aria-describedby={describedBy('series')}
              onChange={(e) => set('series', e.target.value)}
            >
              <option value="">{t('publish.seriesNone')}</option>
              {seriesOptions.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
            {errorLine('series')}
          </div>
        )
      )}

      {failure && (
        <p className={ui.noticeError} role="alert">
          {failure}
        </p>
      )}
      <div className={styles.actions}>
        <button type="submit" className={ui.button} disabled={busy}>
          {busy ? t('publish.saving') : story ? t('publish.saveStory') : t('publish.createStory')}
        </button>
        <button type="button" className={ui.buttonQuiet} onClick={props.onCancel}>
          {t('publish.cancel')}
        </button>
      </div>
    </form>
  );
}

/** Series the story can join: the next season of one of the author's series, or a new one. */
function seriesChoices(
  stories: OwnStory[],
  story: OwnStory | null,
  t: Translate,
): { value: string; label: string }[] {
  const others = stories.filter((s) => s.storyId !== story?.storyId);
  const latestOfSeries = new Map<number, OwnStory>();
  for (const s of others) {
    if (s.seriesId === null) continue;
    const known = latestOfSeries.get(s.seriesId);
    if (!known || (s.season ?? 0) > (known.season ?? 0)) latestOfSeries.set(s.seriesId, s);
  }
  return [
    ...[...latestOfSeries.values()].map((s) => ({
      value: `s:${s.seriesId}`,
      label: t('publish.seriesNext', { title: s.title, n: (s.season ?? 1) + 1 }),
    })),
    ...others
      .filter((s) => s.seriesId === null)
      .map((s) => ({
        value: `o:${s.storyId}`,
        label: t('publish.seriesStart', { title: s.title }),
      })),
  ];
}
