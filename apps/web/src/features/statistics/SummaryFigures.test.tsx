import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Summary, SummaryFigures as Figures } from '@kathamala/domain';
import { I18nProvider } from '../../i18n/index.tsx';
import { SummaryFigures } from './SummaryFigures.tsx';

const figures = (over: Partial<Figures>): Figures => ({
  reads: 0,
  readers: 0,
  ratings: 0,
  ratingAverage: null,
  comments: 0,
  bookmarks: 0,
  followersGained: 0,
  alertsGained: 0,
  membersGained: 0,
  episodesPublished: 0,
  ...over,
});

const summary = (over: Partial<Summary>): Summary => ({
  period: '30',
  current: figures({ reads: 1500, readers: 9, comments: 3, ratings: 2, ratingAverage: 4.25 }),
  previous: figures({ reads: 1000, readers: 12, bookmarks: 4 }),
  change: {},
  followers: 40,
  alertSubscribers: 5,
  stories: 2,
  ...over,
});

const render = (s: Summary, lang: 'en' | 'si' = 'en') =>
  renderToStaticMarkup(
    <I18nProvider lang={lang} setLang={() => {}}>
      <SummaryFigures summary={s} />
    </I18nProvider>,
  );

/** The markup of one figure (its <div data-figure>). */
const figure = (html: string, key: string) =>
  new RegExp(`<div[^>]*data-figure="${key}".*?</div>`).exec(html)?.[0] ?? '';

describe('SummaryFigures', () => {
  it('shows each change as an arrow with a sign and a percentage, said in words', () => {
    const html = render(summary({}));
    expect(figure(html, 'reads')).toContain('1.50K');
    expect(figure(html, 'reads')).toContain('▲ +50%');
    expect(figure(html, 'reads')).toContain('up 50% on the period before');
    expect(figure(html, 'readers')).toContain('▼ -25%');
    expect(figure(html, 'readers')).toContain('down 25% on the period before');
    expect(figure(html, 'bookmarks')).toContain('▼ -100%');
  });

  it('calls a figure new when the period before had none, and says nothing for zero after zero', () => {
    const html = render(summary({}));
    expect(figure(html, 'comments')).toContain('New');
    expect(figure(html, 'comments')).toContain('none in the period before');
    expect(figure(html, 'membersGained')).not.toContain('%');
    expect(figure(html, 'membersGained')).not.toContain('New');
  });

  it('adds the mean rating and the totals, and no change for all time', () => {
    const html = render(summary({ period: 'all', previous: null }));
    expect(figure(html, 'ratings')).toContain('Average 4.3 of 5');
    expect(figure(html, 'followersGained')).toContain('40 followers in all');
    expect(figure(html, 'alertsGained')).toContain('5 readers with alerts on');
    expect(html).not.toContain('▲');
    expect(html).not.toContain('★');
  });

  it('agrees a total with its number: one follower, one reader', () => {
    const html = render(summary({ followers: 1, alertSubscribers: 1 }));
    expect(figure(html, 'followersGained')).toContain('1 follower in all');
    expect(figure(html, 'alertsGained')).toContain('1 reader with alerts on');
  });

  it('speaks Sinhala', () => {
    const html = render(summary({}), 'si');
    expect(figure(html, 'reads')).toContain('කියවීම්');
    expect(figure(html, 'reads')).toContain('50% ඉහළයි');
  });
});
