/*
 * chart.js, loaded only by the statistics page through a dynamic import (its own chunk), with
 * only the pieces its four charts use registered, so the rest of the library is tree-shaken.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
  type Plugin,
} from 'chart.js';
import type { ChartSpec } from './chartSpec.ts';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  Filler,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
);

/** The design tokens a chart draws with, read from the page at draw time (the theme's). */
interface Palette {
  accent: string;
  accentStrong: string;
  highlight: string;
  ink: string;
  inkSoft: string;
  line: string;
  paper: string;
  font: string;
}

const readPalette = (): Palette => {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    accent: v('--color-teal', '#0f5c5a'),
    accentStrong: v('--color-teal-strong', '#0a4644'),
    highlight: v('--color-saffron', '#e8972f'),
    ink: v('--color-ink', '#2a2620'),
    inkSoft: v('--color-ink-soft', '#574f44'),
    line: v('--color-line', '#e4dac7'),
    paper: v('--color-paper-raised', '#fffdf8'),
    font: v('--font-ui', 'system-ui, sans-serif'),
  };
};

/** '#rrggbb' (or '#rgb') with an alpha, for the area under the line. */
export const withAlpha = (hex: string, alpha: number): string => {
  let h = hex.replace('#', '');
  if (h.length === 3) h = [...h].map((c) => c + c).join('');
  if (!/^[0-9a-f]{6}$/i.test(h)) return hex;
  const n = parseInt(h, 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
};

/** A dashed line across the bars at a (fractional) category, e.g. the mean rating. */
const markerPlugin = (spec: ChartSpec, palette: Palette): Plugin<'bar'> => ({
  id: 'kathamalaMarker',
  afterDatasetsDraw(chart) {
    const marker = spec.marker;
    if (!marker) return;
    const { ctx, chartArea } = chart;
    const x = chart.scales.x!.getPixelForValue(marker.at);
    ctx.save();
    // A paper-coloured edge first, so the dashes stand out where they cross a bar.
    ctx.beginPath();
    ctx.moveTo(x, chartArea.top);
    ctx.lineTo(x, chartArea.bottom);
    ctx.strokeStyle = palette.paper;
    ctx.lineWidth = 5;
    ctx.stroke();
    ctx.strokeStyle = palette.highlight;
    ctx.lineWidth = 2;
    ctx.setLineDash([5, 4]);
    ctx.stroke();
    ctx.setLineDash([]);
    // The label sits above the plot (in the top padding), centred on the line, kept inside.
    ctx.font = `700 12px ${palette.font}`;
    const width = ctx.measureText(marker.label).width;
    const left = Math.min(Math.max(x - width / 2, chartArea.left), chartArea.right - width);
    ctx.fillStyle = palette.ink;
    ctx.textBaseline = 'bottom';
    ctx.fillText(marker.label, left, chartArea.top - 6);
    ctx.restore();
  },
});

/** Draws one chart of the page on a canvas; the caller destroys it. */
export function drawChart(canvas: HTMLCanvasElement, spec: ChartSpec): Chart {
  const palette = readPalette();
  const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  const horizontal = spec.horizontal === true;
  const colors = spec.values.map((_, i) =>
    i === spec.highlight ? palette.highlight : palette.accent,
  );
  const grid = { color: palette.line };
  const ticks = { color: palette.inkSoft, font: { family: palette.font, size: 12 } };
  const valueAxis = {
    beginAtZero: true,
    grid,
    border: { display: false },
    ticks: { ...ticks, precision: 0 },
  };
  const labelAxis = {
    grid: { display: false },
    border: { color: palette.line },
    ticks: { ...ticks, autoSkip: true, maxRotation: 0 },
  };

  const config: ChartConfiguration<'line' | 'bar'> = {
    type: spec.kind,
    data: {
      labels: spec.labels,
      datasets: [
        spec.kind === 'line'
          ? {
              type: 'line',
              label: spec.valueLabel,
              data: spec.values,
              borderColor: palette.accent,
              backgroundColor: withAlpha(palette.accent, 0.16),
              fill: 'origin',
              borderWidth: 2,
              tension: 0.25,
              // Points only where a finger or pointer is, and when there are few days.
              pointRadius: spec.values.length <= 31 ? 2.5 : 0,
              pointHoverRadius: 5,
              pointBackgroundColor: palette.accent,
            }
          : {
              type: 'bar',
              label: spec.valueLabel,
              data: spec.values,
              backgroundColor: colors,
              hoverBackgroundColor: palette.accentStrong,
              borderRadius: 4,
              maxBarThickness: 44,
            },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: still ? false : { duration: 400 },
      indexAxis: horizontal ? 'y' : 'x',
      interaction: { mode: 'index', intersect: false },
      layout: { padding: { top: spec.marker ? 24 : 4 } },
      scales: horizontal ? { x: valueAxis, y: labelAxis } : { x: labelAxis, y: valueAxis },
      plugins: {
        tooltip: {
          backgroundColor: palette.ink,
          titleColor: palette.paper,
          bodyColor: palette.paper,
          titleFont: { family: palette.font },
          bodyFont: { family: palette.font },
          displayColors: false,
          callbacks: {
            title: (items) => {
              const i = items[0]?.dataIndex ?? 0;
              return spec.tooltipTitles?.[i] ?? spec.labels[i] ?? '';
            },
            label: (item) => {
              const extra = spec.tooltipExtra?.[item.dataIndex];
              const line = `${spec.valueLabel}: ${item.formattedValue}`;
              return extra ? [line, extra] : line;
            },
          },
        },
      },
    },
    plugins: [markerPlugin(spec, palette) as Plugin<'line' | 'bar'>],
  };
  return new Chart(canvas, config);
}
