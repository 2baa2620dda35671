import { describe, expect, it } from 'vitest';
import { parseChange } from './changes.ts';

describe('cache notices', () => {
  it("name a reader's state of one story, or all of it", () => {
    expect(parseChange('viewer:3:7')).toEqual({ kind: 'viewer', userId: 3, storyId: 7 });
    expect(parseChange('viewer:3')).toEqual({ kind: 'viewer', userId: 3 });
    expect(parseChange('viewer:3:7:rating:4.5')).toEqual({
      kind: 'viewer',
      userId: 3,
      storyId: 7,
      now: { rating: 4.5 },
    });
    expect(parseChange('viewer:3:7:rating:')).toMatchObject({ now: { rating: null } });
    expect(parseChange('viewer:3:7:bookmark:1')).toMatchObject({ now: { bookmark: true } });
    expect(parseChange('viewer:3:7:alert:0')).toMatchObject({ now: { alert: false } });
    expect(parseChange('listener:3')).toEqual({ kind: 'listener', userId: 3 });
  });

  it('name a new account with its first session, whose name may hold anything', () => {
    const sid = '0b6f7f4e-2a8e-4c1b-9a57-2f1d3c4b5a69';
    expect(parseChange(`joined:3:${sid}:1790000000000:ශ්‍රී: Kavi`)).toEqual({
      kind: 'joined',
      userId: 3,
      session: { id: sid, expiresAt: 1790000000000, name: 'ශ්‍රී: Kavi' },
    });
  });

  it('that this version cannot read are left unheard', () => {
    for (const payload of [
      'viewer:3:x',
      'viewer:3:7:1',
      'viewer:3:7:rating:x',
      'viewer:3:7:bookmark:',
      'viewer:3:7:bookmark:2',
      'viewer:3:7:shelf:1',
      'viewer:3:7:alert:1:2',
      'viewer::7',
      'viewer:0:7',
      'viewer:3:',
      'listener:',
      'listener:3:7',
      'joined:',
      'joined:3',
      'joined:3:7:1:x',
      'joined:3:0b6f7f4e-2a8e-4c1b-9a57-2f1d3c4b5a69:1790000000000:',
      'joined:3:0b6f7f4e-2a8e-4c1b-9a57-2f1d3c4b5a69:soon:x',
    ])
      expect(parseChange(payload), payload).toBeNull();
  });
});
