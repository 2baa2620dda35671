import { describe, expect, it } from 'vitest';
import { partAnswerBody } from './part-answer.ts';
import type { DetailsView, SharedDetails } from './service.ts';

// The episode answer must be, byte for byte, what JSON.stringify writes of {...shared, ...mine}:
// the reader's app parses it, and the route sends it.
const shared = (content?: string) =>
  ({
    story: { storyId: 7, title: 'කළු ගඟේ රුවල් "quoted"', language: 'si' },
    series: [],
    part: {
      episodeId: 3,
      partNumber: 2,
      title: 'Two',
      membersOnly: true,
      ...(content === undefined ? {} : { content }),
    },
  }) as unknown as SharedDetails;
const mine = {
  subscribed: true,
  userRating: null,
  bookmarked: false,
  alertEnabled: true,
  audioBooks: [],
};
const expected = (view: DetailsView) =>
  JSON.stringify({ code: 0, object: { ...view.shared, ...view.mine } });

describe('partAnswerBody', () => {
  const sinhala = 'ශ්‍රී ලංකාව <p>"උද්‍යානය"</p>\n\t\\ 🙂 ';
  const cases: [string, string | undefined][] = [
    ['no text', undefined],
    ['a short text', '<p>Short.</p>'],
    ['a long Sinhala text with joiners, quotes, escapes and emoji', sinhala.repeat(200)],
    ['a long text with a lone surrogate', `${'a'.repeat(2000)}\ud800${'b'.repeat(10)}`],
  ];
  for (const [name, content] of cases)
    it(`writes ${name} as JSON.stringify does`, () => {
      const view = { shared: shared(content), mine };
      expect(partAnswerBody(view).toString('utf8')).toBe(expected(view));
      // Again, from the kept head.
      expect(partAnswerBody(view).toString('utf8')).toBe(expected(view));
    });

  it("gives each reader of the same episode their own fields, and a new version's text", () => {
    const first = shared(sinhala.repeat(100));
    const other = {
      subscribed: false,
      userRating: 4,
      bookmarked: true,
      alertEnabled: false,
      audioBooks: [],
    };
    partAnswerBody({ shared: first, mine });
    expect(JSON.parse(partAnswerBody({ shared: first, mine: other }).toString('utf8'))).toEqual({
      code: 0,
      object: { ...first, ...other },
    });
    const edited = shared('<p>Edited.</p>');
    expect(partAnswerBody({ shared: edited, mine }).toString('utf8')).toBe(
      expected({ shared: edited, mine }),
    );
  });

  it('hands the same bytes to readers with the same fields, for two kinds of reader per version', () => {
    const version = shared(sinhala.repeat(50));
    const first = partAnswerBody({ shared: version, mine });
    expect(partAnswerBody({ shared: version, mine: { ...mine } })).toBe(first);
    // Ten other kinds of reader: each answer right; the second is kept, the later ones not.
    const made = (rating: number) =>
      partAnswerBody({ shared: version, mine: { ...mine, userRating: rating } });
    for (let rating = 0; rating < 10; rating++)
      expect(made(rating).toString('utf8')).toBe(
        expected({ shared: version, mine: { ...mine, userRating: rating } }),
      );
    expect(made(0)).toBe(made(0));
    expect(made(5)).not.toBe(made(5));
    expect(partAnswerBody({ shared: version, mine })).toBe(first);
  });

  it("keeps a frozen reader state's JSON by the object, and writes any other state afresh", () => {
    const version = shared('<p>Kept.</p>');
    const frozen = Object.freeze({ ...mine });
    expect(partAnswerBody({ shared: version, mine: frozen }).toString('utf8')).toBe(
      expected({ shared: version, mine: frozen }),
    );
    // A state the service did not freeze may change between answers: each answer says what it holds now.
    const loose = { ...mine, bookmarked: false };
    partAnswerBody({ shared: version, mine: loose });
    loose.bookmarked = true;
    const after = JSON.parse(partAnswerBody({ shared: version, mine: loose }).toString('utf8')) as {
      object: { bookmarked: boolean };
    };
    expect(after.object.bookmarked).toBe(true);
  });
});
