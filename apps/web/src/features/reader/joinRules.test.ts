import { describe, expect, it } from 'vitest';
import { MEMBERSHIP_MESSAGES, ResultCode } from '@kathamala/domain';
import { ApiError } from '../../api/client.ts';
import { translator } from '../../i18n/index.tsx';
import { alertFailureText } from './AlertPanel.tsx';
import { carrierHint, codeDigits, failureDetail } from './joinRules.ts';

describe('carrierHint', () => {
  it.each([
    ['077', 'dialog', '77100'],
    ['0712', 'mobitel', '77011'],
    ['+94 70 123', 'mobitel', '77011'],
    ['9478', 'hutch', '77100'],
    ['75 123 4567', 'airtel', '77100'],
    ['076-123-4567', 'dialog', '77100'],
  ] as const)('%s is %s (%s)', (input, carrier, shortCode) => {
    expect(carrierHint(input)).toEqual({ carrier, shortCode });
  });

  it.each(['', '0', '07', '073', '011 234 5678', '07712345678', 'abc'])(
    '%j is not yet',
    (input) => {
      expect(carrierHint(input)).toBeNull();
    },
  );
});

describe('codeDigits', () => {
  it('drops spaces and dashes from a pasted code', () => {
    expect(codeDigits(' 123 456 ')).toBe('123456');
    expect(codeDigits('123-456')).toBe('123456');
    expect(codeDigits('   ')).toBe('');
  });
});

describe('failureDetail', () => {
  it('sorts what went wrong', () => {
    expect(failureDetail(new ApiError(0, ResultCode.network, 'network'))).toEqual({
      kind: 'offline',
    });
    expect(failureDetail(new ApiError(429, 6, 'Try again in 12 minutes.'))).toEqual({
      kind: 'tooMany',
      message: 'Try again in 12 minutes.',
    });
    expect(failureDetail(new ApiError(503, 9, MEMBERSHIP_MESSAGES.subscribeFailed))).toEqual({
      kind: 'server',
      message: MEMBERSHIP_MESSAGES.subscribeFailed,
    });
    expect(failureDetail(new ApiError(500, 9, ''))).toEqual({ kind: 'none' });
  });

  it('says a mistyped, used or expired code at the field: not a failure to subscribe', () => {
    for (const [status, message] of [
      [400, 'That code is not right. 2 tries left.'],
      [410, 'That subscription code has expired. Please ask for a new one.'],
      [409, 'That subscription code has already been used. Please ask for a new one.'],
      [404, 'We could not find that subscription code. Please ask for a new one.'],
    ] as const)
      expect(failureDetail(new ApiError(status, 1, message))).toEqual({ kind: 'field', message });
  });
});

describe('alertFailureText', () => {
  const keyword = 'REG KATHAMALA';
  const en = translator('en');
  const si = translator('si');

  it('shows the keyword sentence of SPEC.md 8, in the UI language', () => {
    const sentence = MEMBERSHIP_MESSAGES.alertFailure(keyword);
    const error = new ApiError(403, 8, sentence);
    expect(alertFailureText(error, keyword, en)).toBe(sentence);
    expect(alertFailureText(error, keyword, si)).toContain(`"${keyword}"`);
    expect(alertFailureText(error, keyword, si)).not.toBe(sentence);
  });

  it('shows another server sentence as it is, and says so when there was no answer', () => {
    expect(alertFailureText(new ApiError(404, 4, 'No such story.'), keyword, en)).toBe(
      'No such story.',
    );
    expect(alertFailureText(new ApiError(0, ResultCode.network, 'network'), keyword, en)).toBe(
      en('common.offline'),
    );
  });
});
