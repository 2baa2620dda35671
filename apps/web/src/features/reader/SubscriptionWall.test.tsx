import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { PRODUCT_APP_ID, PRODUCT_KEYWORD, type UiLang } from '@kathamala/domain';
import { I18nProvider } from '../../i18n/index.tsx';
import { AlertPanel } from './AlertPanel.tsx';
import { SubscriptionWall } from './SubscriptionWall.tsx';

const render = (node: ReactNode, lang: UiLang = 'en') =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider lang={lang} setLang={() => {}}>
        {node}
      </I18nProvider>
    </QueryClientProvider>,
  );

const nilmini = { name: 'Nilmini', keyword: 'REG NILMINI', appId: 'APP_NILMINI' };
const kathamala = { name: 'Kathamala', keyword: PRODUCT_KEYWORD, appId: PRODUCT_APP_ID };

describe('SubscriptionWall', () => {
  it("says whose stories the membership opens: the author's own, or Kathamala's app", () => {
    const own = render(<SubscriptionWall storyId={4} author={nilmini} />);
    expect(own).toContain('This membership opens every members-only story and episode by Nilmini.');
    expect(own).not.toContain('every members-only story and episode.');
    const product = render(<SubscriptionWall storyId={4} author={kathamala} />);
    expect(product).toContain(
      'it opens the members-only stories and episodes of every author who has no membership of their own.',
    );
    const si = render(<SubscriptionWall storyId={4} author={nilmini} />, 'si');
    expect(si).toContain('Nilminiගේ සියලු සාමාජික කතා සහ කොටස් විවෘත වේ');
    // The sentence that promised every members-only story is gone in both languages.
    expect(si).not.toContain('සාමාජිකයින්ට සාමාජික කතා සහ කොටස් සියල්ල කියවිය හැක');
  });

  it('starts with the fee and the mobile number, typed on a number pad', () => {
    const html = render(<SubscriptionWall storyId={4} author={nilmini} />);
    expect(html).toContain('This story is for members');
    expect(html).toContain('Rs.50 a month');
    expect(html).toMatch(/<input[^>]*type="tel"[^>]*inputmode="numeric"/);
    expect(html).toContain('placeholder="07X XXX XXXX"');
    expect(html).toContain('Send code');
    // The code step comes after the number: no code field yet.
    expect(html).not.toContain('one-time-code');
    // The other way in: the author's keyword to both short codes.
    expect(html.match(/REG NILMINI/g)).toHaveLength(2);
    expect(html).toContain('77100');
    expect(html).toContain('77011');
  });

  it('names a members-only episode, and speaks Sinhala', () => {
    expect(render(<SubscriptionWall storyId={4} author={nilmini} episode />)).toContain(
      'This episode is for members',
    );
    const si = render(<SubscriptionWall storyId={4} author={nilmini} />, 'si');
    expect(si).toContain('මසකට රු.50');
    expect(si).not.toContain('Send code');
  });
});

describe('AlertPanel', () => {
  it('shows the state of the details answer as a pressed toggle', () => {
    const on = render(<AlertPanel storyId={3} alertEnabled keyword="REG KATHAMALA" />);
    expect(on).toContain('aria-pressed="true"');
    expect(on).toContain('SMS alert for new episodes');
    const off = render(<AlertPanel storyId={3} alertEnabled={false} keyword="REG KATHAMALA" />);
    expect(off).toContain('aria-pressed="false"');
    // The live regions are there before any message, so a message is announced.
    expect(off).toContain('role="status"');
    expect(off).toContain('role="alert"');
  });
});
