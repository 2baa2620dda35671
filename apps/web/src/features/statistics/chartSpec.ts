/**
 * What one chart shows, as plain data: the page builds it, and the chart.js chunk turns it into
 * a chart with the theme's colours. Plain data so a change is noticed by comparing JSON.
 */
export interface ChartSpec {
  kind: 'line' | 'bar';
  /** Bars along the vertical axis (long labels such as story titles read better so). */
  horizontal?: boolean;
  labels: string[];
  values: number[];
  /** What a value is, for the tooltip ('Reads'). */
  valueLabel: string;
  /** Tooltip titles when the axis labels are shortened (full story titles). */
  tooltipTitles?: string[];
  /** A second tooltip line per point ('38% of part 1'). */
  tooltipExtra?: string[];
  /** The bar drawn in the highlight colour (the chosen story). */
  highlight?: number;
  /** A dashed line at a fractional category index, labelled (the mean rating). */
  marker?: { at: number; label: string };
}
