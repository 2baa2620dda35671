import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AudioBook, UiLang } from '@kathamala/domain';
import { I18nProvider } from '../../i18n/index.tsx';
import { AudioButton } from './AudioButton.tsx';

const track: AudioBook = {
  trackId: 1,
  prefix: 'abc',
  title: 'Part one',
  partNumber: 1,
  durationSeconds: 600,
  membersOnly: false,
  sizes: { standard: 4_800_000, saver: 1_800_000 },
  positionSeconds: 0,
};

const render = (tracks: AudioBook[], lang: UiLang = 'en') =>
  renderToStaticMarkup(
    <I18nProvider lang={lang} setLang={() => {}}>
      <AudioButton
        storyId={4}
        storyTitle="A story"
        author={{ name: 'Nilmini', keyword: 'REG NILMINI', appId: 'APP' }}
        lang="en"
        tracks={tracks}
        partNumber={1}
        loggedIn={false}
      />
    </I18nProvider>,
  );

describe('AudioButton', () => {
  it('is not there for a story without tracks (SPEC.md 2)', () => {
    expect(render([])).toBe('');
  });

  it('offers the audio book in the page language, as a button opening a dialog', () => {
    expect(render([track])).toMatch(
      /<button[^>]*aria-haspopup="dialog"[^>]*>.*Audio book<\/button>/,
    );
    expect(render([track], 'si')).toContain('ශ්‍රව්‍ය පොත');
    // The player itself is not in the page until the button is pressed (its code loads then).
    expect(render([track])).not.toContain('<dialog');
  });
});
