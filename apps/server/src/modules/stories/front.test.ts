import { describe, expect, it } from 'vitest';
import { partAnswerBody } from './front.ts';

// The episode answer the front lane writes must be, byte for byte, what JSON.stringify writes:
// the reader's app parses it, and the Fastify route writes it that way.
const answer = (content?: string) => ({
  story: { storyId: 7, title: 'කළු ගඟේ රුවල් "quoted"', language: 'si' },
  part: {
    episodeId: 3,
    partNumber: 2,
    title: 'Two',
    ...(content === undefined ? {} : { content }),
  },
  subscribed: true,
  userRating: null,
});

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
      const object = answer(content);
      expect(partAnswerBody(object).toString('utf8')).toBe(JSON.stringify({ code: 0, object }));
    });

  it('writes the same text again from its kept bytes, for another reader', () => {
    const text = sinhala.repeat(100);
    const first = answer(text);
    const second = { ...answer(text), subscribed: false, userRating: 4 };
    partAnswerBody(first);
    expect(JSON.parse(partAnswerBody(second).toString('utf8'))).toEqual({
      code: 0,
      object: second,
    });
  });
});
