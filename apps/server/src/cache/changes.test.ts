import { describe, expect, it } from 'vitest';
import { parseChange } from './changes.ts';

describe('cache notices', () => {
  it("name a reader's state of one story, or all of it", () => {
    expect(parseChange('viewer:3:7')).toEqual({ kind: 'viewer', userId: 3, storyId: 7 });
    expect(parseChange('viewer:3')).toEqual({ kind: 'viewer', userId: 3 });
    expect(parseChange('listener:3')).toEqual({ kind: 'listener', userId: 3 });
    expect(parseChange('joined:3')).toEqual({ kind: 'joined', userId: 3 });
  });

  it('that this version cannot read are left unheard', () => {
    for (const payload of [
      'viewer:3:x',
      'viewer:3:7:1',
      'viewer::7',
      'viewer:0:7',
      'viewer:3:',
      'listener:',
      'listener:3:7',
      'joined:',
      'joined:3:7',
    ])
      expect(parseChange(payload), payload).toBeNull();
  });
});
