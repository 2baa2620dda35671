import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useI18n, type MessageKey } from '../../i18n/index.tsx';
import {
  LINE_SPACINGS,
  readComfort,
  saveComfort,
  TEXT_SIZES,
  THEMES,
  type Comfort,
} from './comfort.ts';
import styles from './comfort.module.css';

const SIZE_NAMES: MessageKey[] = [
  'comfort.size0',
  'comfort.size1',
  'comfort.size2',
  'comfort.size3',
  'comfort.size4',
];
const SPACING_NAMES: MessageKey[] = ['comfort.spacing0', 'comfort.spacing1', 'comfort.spacing2'];
const THEME_NAMES: Record<Comfort['theme'], MessageKey> = {
  system: 'comfort.themeSystem',
  light: 'comfort.themeLight',
  sepia: 'comfort.themeSepia',
  dark: 'comfort.themeDark',
};

/**
 * The "Aa" button on the reader: a small panel for text size (5 steps), line spacing (3 steps)
 * and the theme (light, sepia, dark or the system's). Changes apply at once and are remembered
 * on this device.
 */
export function ComfortButton() {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const [comfort, setComfort] = useState<Comfort>(readComfort);
  const panelId = useId();
  const wrap = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      if (wrap.current && !wrap.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  const update = (change: Partial<Comfort>) => {
    const next = { ...comfort, ...change };
    setComfort(next);
    saveComfort(next);
  };

  return (
    <div className={styles.wrap} ref={wrap}>
      <button
        ref={button}
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true" className={styles.aa}>
          Aa
        </span>
        <span className="visually-hidden">{t('comfort.open')}</span>
      </button>
      <div id={panelId} className={styles.panel} hidden={!open}>
        <Choices
          legend={t('comfort.size')}
          name={`${panelId}-size`}
          options={Array.from({ length: TEXT_SIZES }, (_, i) => ({
            value: i,
            label: t(SIZE_NAMES[i]!),
            face: (
              <span className={styles.sizeFace} data-step={i}>
                A
              </span>
            ),
          }))}
          value={comfort.size}
          onChange={(size) => update({ size })}
        />
        <Choices
          legend={t('comfort.spacing')}
          name={`${panelId}-spacing`}
          options={Array.from({ length: LINE_SPACINGS }, (_, i) => ({
            value: i,
            label: t(SPACING_NAMES[i]!),
          }))}
          value={comfort.spacing}
          onChange={(spacing) => update({ spacing })}
        />
        <Choices
          legend={t('comfort.theme')}
          name={`${panelId}-theme`}
          options={THEMES.map((theme) => ({
            value: theme,
            label: t(THEME_NAMES[theme]),
            face: <span className={styles.swatch} data-swatch={theme} aria-hidden="true" />,
          }))}
          value={comfort.theme}
          onChange={(theme) => update({ theme })}
        />
      </div>
    </div>
  );
}

/** A row of radio buttons drawn as a segmented control (arrow keys move, as radios do). */
function Choices<T extends string | number>(props: {
  legend: string;
  name: string;
  options: { value: T; label: string; face?: ReactNode }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className={styles.group}>
      <legend className={styles.legend}>{props.legend}</legend>
      <div className={styles.options}>
        {props.options.map((o) => (
          <label key={String(o.value)} className={styles.option}>
            <input
              type="radio"
              name={props.name}
              checked={o.value === props.value}
              onChange={() => props.onChange(o.value)}
            />
            <span className={styles.face}>
              {o.face}
              <span className={o.face && typeof o.value === 'number' ? 'visually-hidden' : ''}>
                {o.label}
              </span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
