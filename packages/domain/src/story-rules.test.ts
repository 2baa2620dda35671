import { describe, expect, it } from 'vitest';
import {
  canReadEpisode,
  episodeFooter,
  safeRedirect,
  wallFor,
  type Viewer,
} from './story-rules.ts';

describe('canReadEpisode: every viewer against every kind of episode', () => {
  const cases: [Viewer, boolean, boolean, boolean][] = [
    // viewer, story members-only, episode members-only, may read
    ['visitor', false, false, false],
    ['visitor', true, false, false],
    ['reader', false, false, true],
    ['reader', true, false, false],
    ['reader', false, true, false],
    ['subscriber', false, false, true],
    ['subscriber', true, false, true],
    ['subscriber', false, true, true],
  ];
  it.each(cases)('%s, story locked %s, episode locked %s -> %s', (viewer, story, episode, may) =>
    expect(canReadEpisode(viewer, { membersOnly: story }, { membersOnly: episode })).toBe(may),
  );
  it('shows visitors the login wall and non-members the subscription wall', () => {
    expect(wallFor('visitor', { membersOnly: false })).toBe('login');
    expect(wallFor('reader', { membersOnly: true })).toBe('subscribe');
    expect(wallFor('subscriber', { membersOnly: true })).toBeNull();
  });
});

describe('episodeFooter (SPEC.md 2)', () => {
  it.each([
    [0, true, 'english', 'To be continued'],
    [0, false, 'english', 'The End'],
    [0, true, 'sinhala', 'මතු සම්බන්ධයි'],
    [0, false, 'sinhala', 'නිමි'],
    [2, true, 'english', null],
    [3, false, 'sinhala', null],
  ] as const)('kind %i ongoing %s %s -> %s', (kind, ongoing, language, text) =>
    expect(episodeFooter({ kind, ongoing, language })).toBe(text),
  );
  it("keeps a finished story's earlier episodes 'to be continued'", () => {
    expect(episodeFooter({ kind: 0, ongoing: false, language: 'english' }, false)).toBe(
      'To be continued',
    );
    expect(episodeFooter({ kind: 0, ongoing: false, language: 'sinhala' }, false)).toBe(
      'මතු සම්බන්ධයි',
    );
  });
});

describe('safeRedirect', () => {
  it.each([
    ['/details/4/', '/details/4/'],
    ['/details/4/2/?from=home#comments', '/details/4/2/?from=home#comments'],
    [
      '/search/?q=%E0%B6%B8%E0%B7%93%E0%B6%AF%E0%B7%94%E0%B6%B8%E0%B7%8A',
      '/search/?q=%E0%B6%B8%E0%B7%93%E0%B6%AF%E0%B7%94%E0%B6%B8%E0%B7%8A',
    ],
    ['/%09/evil.example', '/%09/evil.example'],
    [null, '/'],
    [undefined, '/'],
    ['', '/'],
  ])('keeps a same-site path: %j -> %j', (target, to) => expect(safeRedirect(target)).toBe(to));

  // Each of these, given to `new URL(target, site)` or to a browser's location, leaves the site.
  it.each([
    'https://evil.example/',
    'javascript:alert(1)',
    'evil.example',
    '//evil.example',
    '///evil.example',
    ' //evil.example',
    '/\\evil.example',
    '\\/evil.example',
    '/\\/evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r/evil.example',
    '/\r\n/evil.example',
    '/\t\t/evil.example',
    '/\u0000/evil.example',
    '/\u000b/evil.example',
    '/\u001f/evil.example',
    '/\u007f/evil.example',
    '/\u0085/evil.example',
    '/./\t/evil.example',
    '/.//evil.example',
  ])('refuses %j', (target) => {
    expect(safeRedirect(target)).toBe('/');
    expect(safeRedirect(target, '/home/')).toBe('/home/');
  });

  it('never answers a target a URL parser reads as another site', () => {
    // The platform's own parser (the domain package is typed without DOM or Node globals).
    const { URL } = globalThis as unknown as {
      URL: new (url: string, base: string) => { origin: string };
    };
    const site = 'https://kathamala.lk';
    const tricks = ['/\t/evil.example', '/\n/evil.example', '/\\evil.example', '/.//evil.example'];
    for (const target of tricks)
      expect(new URL(safeRedirect(target), site).origin, JSON.stringify(target)).toBe(site);
  });
});
