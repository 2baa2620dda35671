import { describe, expect, it } from 'vitest';
import {
  backspace,
  composedWord,
  emptyTyping,
  endWord,
  typeKey,
  undoable,
  undoWord,
  type TypingState,
} from './typing.ts';

// A stand-in transliteration that shows which Latin letters a word holds: 'ge' -> '<ge>'.
const tr = (latin: string) => `<${latin}>`;

/** Types keys into a field (caret at the end), as the browser would with Singlish on. */
function type(keys: string, start = { value: '', state: emptyTyping as TypingState }) {
  let { value, state } = start;
  let caret = value.length;
  for (const k of keys) {
    const edit = typeKey(state, value, caret, caret, k, tr);
    if (edit) ({ value, caret, state } = edit);
    else {
      state = endWord(state);
      value = value.slice(0, caret) + k + value.slice(caret);
      caret += 1;
    }
  }
  return { value, state, caret };
}

describe('Singlish typing steps', () => {
  it('re-transliterates the whole word on every key; a space ends it', () => {
    expect(type('ge').value).toBe('<ge>');
    expect(type('gedara').value).toBe('<gedara>');
    expect(type('gedara yamu').value).toBe('<gedara> <yamu>');
    expect(type('amma, thaththa').value).toBe('<amma>, <thaththa>');
  });

  it('starts a new word when the caret moved away from the word', () => {
    const first = type('ab');
    const edit = typeKey(first.state, first.value, 0, 0, 'k', tr)!;
    expect(edit.value).toBe('<k><ab>');
    expect(edit.caret).toBe(3);
  });

  it('replaces a selection with the new word', () => {
    const edit = typeKey(emptyTyping, 'old text', 0, 3, 'k', tr)!;
    expect(edit.value).toBe('<k> text');
  });

  it('leaves a name after @ as typed (mentions)', () => {
    expect(type('hi @kasun').value).toBe('<hi> @kasun');
  });

  it('leaves keys that are not letters to the browser', () => {
    expect(typeKey(emptyTyping, '', 0, 0, '1', tr)).toBeNull();
    expect(typeKey(emptyTyping, '', 0, 0, ' ', tr)).toBeNull();
  });

  it('backspace takes back one Latin letter of the word being typed', () => {
    const typed = type('gedh');
    const edit = backspace(typed.state, typed.value, typed.caret, typed.caret, tr)!;
    expect(edit.value).toBe('<ged>');
    const one = type('g');
    const gone = backspace(one.state, one.value, 1 + 2, 1 + 2, tr)!;
    expect(gone.value).toBe('');
    expect(gone.state.word).toBeNull();
    // Outside a word the browser deletes as usual.
    const ended = type('ge ');
    expect(backspace(ended.state, ended.value, ended.caret, ended.caret, tr)).toBeNull();
  });

  it('Undo gives back the Latin letters of the word, during it and right after it', () => {
    const during = type('gedara');
    expect(undoWord(during.state, during.value, during.caret)!.value).toBe('gedara');
    const after = type('amma gedara ');
    const edit = undoWord(after.state, after.value, after.caret)!;
    expect(edit.value).toBe('<amma> gedara ');
    expect(edit.caret).toBe(edit.value.length);
    // Once given back, a second Undo is the browser's own.
    expect(undoWord(edit.state, edit.value, edit.caret)).toBeNull();
  });

  it('Undo does nothing once the word was changed or the caret moved on', () => {
    const after = type('gedara ');
    expect(undoable(after.state, after.value, 0)).toBeNull();
    expect(undoable(after.state, 'X' + after.value, after.caret + 1)).toBeNull();
    expect(undoable(after.state, after.value, after.caret)).toMatchObject({ latin: 'gedara' });
  });

  it('converts a word a phone keyboard composed, when it is committed', () => {
    const edit = composedWord(emptyTyping, 'hi gedara', 9, 'gedara', tr)!;
    expect(edit.value).toBe('hi <gedara>');
    expect(edit.state.last).toMatchObject({ latin: 'gedara', start: 3 });
    expect(composedWord(emptyTyping, 'hi 123', 6, '123', tr)).toBeNull();
  });
});
