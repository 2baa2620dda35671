import { useEffect, useId, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useI18n } from '../../i18n/index.tsx';
import type { ChartSpec } from './chartSpec.ts';
import styles from './statistics.module.css';

/** A table of a chart's numbers: its column names and rows (the first cell names the row). */
export interface ChartTable {
  columns: string[];
  rows: ReactNode[][];
  /** Said under the table (e.g. that days not listed had no reads). */
  note?: string;
}

const DARK = '(prefers-color-scheme: dark)';

/** Re-renders when the reader changes theme (the html data-theme attribute, or the device's). */
function subscribeTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  const media = window.matchMedia(DARK);
  media.addEventListener('change', onChange);
  return () => {
    observer.disconnect();
    media.removeEventListener('change', onChange);
  };
}
const themeSnapshot = () =>
  `${document.documentElement.dataset.theme ?? ''}|${window.matchMedia(DARK).matches}`;
const useThemeKey = () => useSyncExternalStore(subscribeTheme, themeSnapshot, () => '');

type DrawState = 'loading' | 'drawn' | 'failed';

/**
 * One chart: a canvas drawn by chart.js (loaded on first use, in its own chunk), described for
 * screen readers by `summary` (role img), with its numbers in a table behind "Show as table".
 * When there is nothing to draw, `empty` is said instead. If the chart code cannot load, the
 * table opens in its place.
 */
export function ChartFigure(props: {
  name: string;
  title: string;
  subtitle?: ReactNode;
  summary: string;
  spec: ChartSpec;
  table: ChartTable;
  empty?: string | null;
  /** A taller drawing area (the chart fills it). */
  tall?: boolean;
  /** Horizontal bars: the drawing area's height follows their number. */
  rows?: number;
  actions?: ReactNode;
}) {
  const { t } = useI18n();
  const titleId = useId();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<DrawState>('loading');
  const themeKey = useThemeKey();
  const specKey = JSON.stringify(props.spec);
  const empty = props.empty ?? null;

  useEffect(() => {
    if (empty !== null) return;
    let cancelled = false;
    let destroy = () => {};
    setState('loading');
    import('./chartjs.ts')
      .then(({ drawChart }) => {
        if (cancelled || !canvas.current) return;
        const chart = drawChart(canvas.current, JSON.parse(specKey) as ChartSpec);
        destroy = () => chart.destroy();
        setState('drawn');
      })
      .catch(() => {
        if (!cancelled) setState('failed');
      });
    return () => {
      cancelled = true;
      destroy();
    };
  }, [specKey, themeKey, empty]);

  return (
    <figure
      className={styles.chart}
      data-chart={props.name}
      data-state={empty !== null ? 'empty' : state}
      aria-labelledby={titleId}
    >
      <div className={styles.chartHead}>
        <div>
          <h3 id={titleId} className={styles.chartTitle}>
            {props.title}
          </h3>
          {props.subtitle && <p className={styles.chartSubtitle}>{props.subtitle}</p>}
        </div>
        {props.actions}
      </div>
      {empty !== null ? (
        <p className={styles.chartEmpty}>{empty}</p>
      ) : (
        <>
          <div
            className={`${styles.canvasBox} ${props.tall ? styles.canvasTall : ''} ${props.rows ? styles.canvasFit : ''}`}
            style={props.rows ? { height: `${2.75 * props.rows + 2.5}rem` } : undefined}
          >
            {state === 'loading' && <span className={styles.canvasLoading} aria-hidden="true" />}
            <canvas ref={canvas} role="img" aria-label={props.summary}>
              {props.summary}
            </canvas>
          </div>
          <details className={styles.tableToggle} open={state === 'failed' || undefined}>
            <summary>{t('stats.showTable')}</summary>
            <div className={styles.tableScroll}>
              <table className={styles.dataTable}>
                <caption className="visually-hidden">{props.title}</caption>
                <thead>
                  <tr>
                    {props.table.columns.map((c, i) => (
                      <th key={c} scope="col" className={i > 0 ? styles.num : undefined}>
                        {c}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {props.table.rows.map((row, r) => (
                    <tr key={r}>
                      {row.map((cell, i) =>
                        i === 0 ? (
                          <th key={i} scope="row">
                            {cell}
                          </th>
                        ) : (
                          <td key={i} className={styles.num}>
                            {cell}
                          </td>
                        ),
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {props.table.note && <p className={styles.tableNote}>{props.table.note}</p>}
          </details>
        </>
      )}
    </figure>
  );
}
