import { describe, expect, it } from 'vitest';
import {
  MAX_MENTIONS,
  activeMention,
  insertMention,
  mentionParts,
  resolveMentions,
  suggestMentions,
} from './mentions.ts';

const people = [
  { userId: 1, username: 'Kasun' },
  { userId: 2, username: 'Kasun Perera' },
  { userId: 3, username: 'නිමාලි' },
  { userId: 4, username: 'ශ්‍රී ලංකා' },
  { userId: 5, username: 'Amali' },
];

describe('resolveMentions', () => {
  it('takes the longest name the text continues with', () => {
    expect(resolveMentions('@Kasun Perera thanks!', people).userIds).toEqual([2]);
    expect(resolveMentions('@Kasun thanks!', people).userIds).toEqual([1]);
    expect(resolveMentions('@kasun perera, see this', people).userIds).toEqual([2]);
  });

  it('needs the name to end at a space, punctuation or the end', () => {
    expect(resolveMentions('@Kasunx hello', people)).toEqual({
      userIds: [],
      unresolved: ['Kasunx'],
    });
    expect(resolveMentions('@Amali.', people).userIds).toEqual([5]);
    expect(resolveMentions('(@Amali)', people).userIds).toEqual([5]);
  });

  it('reads Sinhala names, with or without the joiner', () => {
    expect(resolveMentions('@නිමාලි ස්තූතියි', people).userIds).toEqual([3]);
    expect(resolveMentions('@ශ්‍රී ලංකා හොඳයි', people).userIds).toEqual([4]);
    expect(resolveMentions('@ශ්රී ලංකා හොඳයි', people).userIds).toEqual([4]);
  });

  it('never mentions the writer, and each person once in order', () => {
    expect(resolveMentions('@Amali @Kasun @Amali', people, 5).userIds).toEqual([1]);
    expect(resolveMentions('@Amali and @Kasun and @amali', people).userIds).toEqual([5, 1]);
  });

  it('leaves e-mail addresses and a bare @ alone', () => {
    expect(resolveMentions('write to amali@example.com', people)).toEqual({
      userIds: [],
      unresolved: [],
    });
    expect(resolveMentions('@ nobody', people)).toEqual({ userIds: [], unresolved: [] });
  });

  it('hands unknown one-word names to the caller, punctuation off, each once', () => {
    expect(resolveMentions('@Ruwan, @ruwan! @Zz', people)).toEqual({
      userIds: [],
      unresolved: ['Ruwan'],
    });
  });

  it('stops at MAX_MENTIONS', () => {
    const many = Array.from({ length: 20 }, (_, i) => ({ userId: 100 + i, username: `user${i}x` }));
    const text = many.map((p) => `@${p.username}`).join(' ');
    expect(resolveMentions(text, many).userIds).toHaveLength(MAX_MENTIONS);
  });

  it('does not treat the text as markup', () => {
    expect(resolveMentions('<b>@Amali</b>', people).userIds).toEqual([5]);
  });
});

describe('mentionParts', () => {
  it('cuts the text at each mention of the people recorded, longest name first', () => {
    expect(mentionParts('Thanks @Kasun Perera and @amali!', people)).toEqual([
      { text: 'Thanks ' },
      { text: '@Kasun Perera', userId: 2 },
      { text: ' and ' },
      { text: '@amali', userId: 5 },
      { text: '!' },
    ]);
  });

  it('finds Sinhala names with or without the joiner, as written', () => {
    expect(mentionParts('@ශ්රී ලංකා හොඳයි', people)).toEqual([
      { text: '@ශ්රී ලංකා', userId: 4 },
      { text: ' හොඳයි' },
    ]);
  });

  it('leaves alone who was not mentioned, e-mail addresses and markup', () => {
    expect(mentionParts('@Ruwan mail amali@example.com', people)).toEqual([
      { text: '@Ruwan mail amali@example.com' },
    ]);
    expect(mentionParts('<b>@Amali</b>', [{ userId: 5, username: 'Amali' }])).toEqual([
      { text: '<b>' },
      { text: '@Amali', userId: 5 },
      { text: '</b>' },
    ]);
    expect(mentionParts('', people)).toEqual([{ text: '' }]);
  });

  it('joins back into the text it was cut from', () => {
    const text = '@Kasun, @Kasun Perera; @නිමාලි.\n@Amali';
    expect(
      mentionParts(text, people)
        .map((p) => p.text)
        .join(''),
    ).toBe(text);
  });
});

describe('activeMention, suggestMentions and insertMention', () => {
  it('finds the mention being typed at the caret', () => {
    expect(activeMention('hello @Kas')).toEqual({ start: 6, query: 'Kas' });
    expect(activeMention('hello @Kasun Pe')).toEqual({ start: 6, query: 'Kasun Pe' });
    expect(activeMention('@')).toEqual({ start: 0, query: '' });
    expect(activeMention('hello @Kas', 3)).toBeNull();
    expect(activeMention('mail me at a@b')).toBeNull();
    expect(activeMention('@Kasun\nnext line')).toBeNull();
  });

  it('suggests names that start with the query, then names with a word that does', () => {
    expect(suggestMentions('kas', people).map((p) => p.userId)).toEqual([1, 2]);
    expect(suggestMentions('per', people).map((p) => p.userId)).toEqual([2]);
    expect(suggestMentions('', people, { exclude: 5, max: 3 }).map((p) => p.userId)).toEqual([
      1, 2, 3,
    ]);
    expect(suggestMentions('zzz', people)).toEqual([]);
    expect(suggestMentions('ශ්රී', people).map((p) => p.userId)).toEqual([4]);
  });

  it('puts the chosen name in place and the caret after it', () => {
    const text = 'hi @Kas how are you';
    const m = activeMention(text, 7)!;
    expect(insertMention(text, m, 'Kasun Perera')).toEqual({
      text: 'hi @Kasun Perera how are you',
      caret: 17,
    });
  });
});
