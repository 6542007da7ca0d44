import { count, escapeHtml as esc, percent, shortText } from './html.js';
import type { Timeline } from './insights.js';

/** One bar of a bar chart: `part` of `whole`, shown as a share (or as a count when `counts`). */
export interface Bar {
  label: string;
  /** Smaller text after the label (a field's path). */
  detail?: string;
  part: number;
  whole: number;
}

const WIDTH = 760;
const LABEL = 300;
const ROW = 24;
const BAR = 14;

/** The colour class of a share: what a data engineer should look at first. */
const shareClass = (part: number, whole: number) =>
  whole === 0 ? 'none' : part / whole >= 0.9 ? 'good' : part / whole >= 0.5 ? 'fair' : 'poor';

/**
 * Horizontal bars in one SVG, a row each: label, bar, value. Shares are coloured by how
 * complete they are; with `counts`, bars are scaled to the largest and show the count.
 */
export function barChart(title: string, bars: readonly Bar[], options: { counts?: boolean } = {}): string {
  const height = bars.length * ROW + 4;
  const span = WIDTH - LABEL - 110;
  const largest = Math.max(1, ...bars.map((bar) => bar.part));
  const rows = bars.map((bar, i) => {
    const y = i * ROW + 4;
    const share = options.counts ? bar.part / largest : bar.whole === 0 ? 0 : bar.part / bar.whole;
    const value = options.counts ? count(bar.part) : percent(bar.part, bar.whole);
    const tip = options.counts
      ? `${bar.label}: ${count(bar.part)}`
      : `${bar.label}${bar.detail ? ` (${bar.detail})` : ''}: ${count(bar.part)} of ${count(bar.whole)}`;
    const label = shortText(bar.label, 34);
    const detail = bar.detail
      ? `<tspan class="dim"> ${esc(shortText(bar.detail, 40 - label.length))}</tspan>`
      : '';
    return (
      `<g><title>${esc(tip)}</title>` +
      `<text x="0" y="${y + BAR - 3}">${esc(label)}${detail}</text>` +
      `<rect class="track" x="${LABEL}" y="${y}" width="${span}" height="${BAR}" rx="3"/>` +
      `<rect class="fill ${options.counts ? 'count' : shareClass(bar.part, bar.whole)}" x="${LABEL}` +
      `" y="${y}" width="${(span * share).toFixed(1)}" height="${BAR}" rx="3"/>` +
      `<text class="value" x="${LABEL + span + 8}" y="${y + BAR - 3}">${esc(value)}</text></g>`
    );
  });
  return (
    `<svg class="chart" role="img" aria-label="${esc(title)}" viewBox="0 0 ${WIDTH} ${height}" ` +
    `width="${WIDTH}" height="${height}">${rows.join('')}</svg>`
  );
}

const TIMELINE_HEIGHT = 160;
const series = ['accepted', 'rejected', 'unanswered', 'retried'] as const;

/** A UTC time as HH:MM. */
const clock = (ms: number) => new Date(ms).toISOString().slice(11, 16);

/**
 * Answers per bucket of time as stacked columns: accepted, rejected, failed or unanswered, and the attempts
 * made again.
 */
export function timelineChart(timeline: Timeline): string {
  const { buckets } = timeline;
  const plot = { left: 48, top: 8, width: WIDTH - 60, height: TIMELINE_HEIGHT - 36 };
  const largest = Math.max(1, ...buckets.map((b) => b.accepted + b.rejected + b.unanswered + b.retried));
  // Columns at most 40 px wide: a short run's few minutes are not stretched over the whole width.
  const step = Math.min(40, plot.width / Math.max(buckets.length, 1));
  const columns = buckets.map((bucket, i) => {
    let top = plot.top + plot.height;
    const at = timeline.start + i * timeline.minutes * 60_000;
    const parts = series.map((name) => {
      const h = (plot.height * bucket[name]) / largest;
      top -= h;
      return h === 0
        ? ''
        : `<rect class="${name}" x="${(plot.left + i * step + 1).toFixed(1)}" y="${top.toFixed(1)}" ` +
            `width="${Math.max(1, step - 2).toFixed(1)}" height="${h.toFixed(1)}"/>`;
    });
    const tip =
      `${clock(at)} UTC: ${count(bucket.accepted)} accepted, ${count(bucket.rejected)} rejected, ` +
      `${count(bucket.unanswered)} failed or unanswered, ${count(bucket.retried)} retried`;
    return `<g><title>${esc(tip)}</title>${parts.join('')}</g>`;
  });
  const end = timeline.start + buckets.length * timeline.minutes * 60_000;
  const axis =
    `<line class="axis" x1="${plot.left}" y1="${plot.top + plot.height}" x2="` +
    `${plot.left + plot.width}" y2="${plot.top + plot.height}"/>` +
    `<text x="${plot.left - 6}" y="${plot.top + 10}" text-anchor="end">${count(largest)}</text>` +
    `<text x="${plot.left - 6}" y="${plot.top + plot.height}" text-anchor="end">0</text>` +
    `<text x="${plot.left}" y="${TIMELINE_HEIGHT - 10}">${clock(timeline.start)} UTC</text>` +
    `<text x="${plot.left + Math.max(step * buckets.length, 170)}" y="${TIMELINE_HEIGHT - 10}" ` +
    `text-anchor="end">${clock(end)} UTC</text>`;
  const per = timeline.minutes === 1 ? 'per minute' : `per ${timeline.minutes} minutes`;
  return (
    `<svg class="chart timeline" role="img" aria-label="answers ${per}" viewBox="0 0 ${WIDTH} ` +
    `${TIMELINE_HEIGHT}" width="${WIDTH}" height="${TIMELINE_HEIGHT}">${axis}${columns.join('')}` +
    `</svg>` +
    `<p class="legend"><span class="key accepted"></span>accepted <span class="key ` +
    `rejected"></span>rejected <span class="key unanswered"></span>failed or unanswered <span ` +
    `class="key retried"></span>attempts made again · ${esc(per)}</p>`
  );
}
