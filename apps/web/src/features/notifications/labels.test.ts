import { describe, expect, it } from 'vitest';
import { NotificationTitle } from '@kathamala/domain';
import { en } from '../../i18n/en.ts';
import { badgeCount, notificationLabelKey } from './labels.ts';

describe('notificationLabelKey', () => {
  it.each([
    [NotificationTitle.newStory, 'New story'],
    [NotificationTitle.newEpisode, 'New episode'],
    [NotificationTitle.newComment, 'New comment'],
  ])('%s reads %s', (title, text) => {
    const key = notificationLabelKey(title);
    expect(key && en[key]).toBe(text);
  });

  it('leaves an unknown title to be shown as it came', () => {
    expect(notificationLabelKey('SOMETHING ELSE')).toBeNull();
  });
});

describe('badgeCount', () => {
  it.each([
    [1, '1'],
    [99, '99'],
    [100, '99+'],
  ])('%i -> %s', (n, text) => expect(badgeCount(n)).toBe(text));
});
