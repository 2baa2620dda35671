import { describe, expect, it } from 'vitest';
import { ENGAGEMENT } from '@kathamala/domain';
import { canPost, countChars } from './CommentBox.tsx';
import { reportReason } from './ReportDialog.tsx';

describe('comment text', () => {
  it('is not posted when empty once trimmed', () => {
    expect(canPost('')).toBe(false);
    expect(canPost('  \n\t ')).toBe(false);
    expect(canPost(' hi ')).toBe(true);
  });

  it('counts characters, not UTF-16 units, and stops at the limit', () => {
    expect(countChars(' ශ්‍රී ')).toBe(5);
    expect(countChars('😀')).toBe(1);
    expect(canPost('a'.repeat(ENGAGEMENT.commentChars))).toBe(true);
    expect(canPost('a'.repeat(ENGAGEMENT.commentChars + 1))).toBe(false);
  });
});

describe('reportReason', () => {
  it('adds the reader’s words after the reason, within the limit', () => {
    expect(reportReason('Spoiler', '  ')).toBe('Spoiler');
    expect(reportReason('Something else', ' rude ')).toBe('Something else: rude');
    expect(reportReason('Spam', 'x'.repeat(900))).toHaveLength(ENGAGEMENT.reportReasonChars);
  });
});
