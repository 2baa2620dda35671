/**
 * Singlish typing as pure steps over a text field's value and caret, so the plain fields
 * (search, comments) and the editor share one behaviour and it is tested without a browser.
 * The word being typed keeps its Latin letters: each key re-transliterates the whole word, so
 * `k`, `ka`, `kaa` show ක, ක, කා in turn, and Undo can give the letters back.
 */

/** A word typed in Latin letters and shown in Sinhala at `start`. */
export interface TypedWord {
  start: number;
  latin: string;
  text: string;
}

export interface TypingState {
  /** The word under the caret, still growing. */
  word: TypedWord | null;
  /** The word finished last (a space or a punctuation mark ended it), for Undo. */
  last: TypedWord | null;
}

/** A change to make to the field: its new value and where the caret goes. */
export interface TypingEdit {
  value: string;
  caret: number;
  state: TypingState;
}

export type Transliterate = (latin: string) => string;

export const emptyTyping: TypingState = { word: null, last: null };

/** Keys that build a Singlish word: the Latin letters (capitals mean other letters: N ණ, L ළ). */
export const isSinglishKey = (ch: string): boolean => /^[A-Za-z]$/.test(ch);

const endOf = (w: TypedWord) => w.start + w.text.length;
const intact = (w: TypedWord, value: string) => value.slice(w.start, endOf(w)) === w.text;

/** A key that is not a letter (space, punctuation, a digit) ends the word; its text stays. */
export const endWord = (state: TypingState): TypingState =>
  state.word
    ? { word: null, last: state.word.text !== state.word.latin ? state.word : state.last }
    : state;

/** Forgets the word being typed (the caret moved, text was pasted or cut). */
export const dropWord = (state: TypingState): TypingState =>
  state.word ? { ...state, word: null } : state;

/** Types one Latin letter at the caret (replacing any selection); null for other keys. */
export function typeKey(
  state: TypingState,
  value: string,
  selStart: number,
  selEnd: number,
  key: string,
  transliterate: Transliterate,
): TypingEdit | null {
  if (!isSinglishKey(key)) return null;
  const w = state.word;
  const grows = w && selStart === selEnd && selStart === endOf(w) && intact(w, value);
  // A name after @ (a mention) is typed as it is spelt.
  if (!grows && /@[\w.]*$/.test(value.slice(0, selStart))) return null;
  const start = grows ? w.start : selStart;
  const latin = grows ? w.latin + key : key;
  const text = transliterate(latin);
  const next = value.slice(0, start) + text + value.slice(grows ? endOf(w) : selEnd);
  return {
    value: next,
    caret: start + text.length,
    state: { word: { start, latin, text }, last: grows ? state.last : endWord(state).last },
  };
}

/** Backspace inside the word being typed takes back its last Latin letter, not a Sinhala sign. */
export function backspace(
  state: TypingState,
  value: string,
  selStart: number,
  selEnd: number,
  transliterate: Transliterate,
): TypingEdit | null {
  const w = state.word;
  if (!w || selStart !== selEnd || selStart !== endOf(w) || !intact(w, value)) return null;
  const latin = w.latin.slice(0, -1);
  const text = latin ? transliterate(latin) : '';
  return {
    value: value.slice(0, w.start) + text + value.slice(endOf(w)),
    caret: w.start + text.length,
    state: { word: latin ? { start: w.start, latin, text } : null, last: state.last },
  };
}

/** The word Undo would give back, if it is still there and the caret is at it (or one past). */
export function undoable(state: TypingState, value: string, caret: number): TypedWord | null {
  const w = state.word ?? state.last;
  if (!w || !intact(w, value)) return null;
  const end = endOf(w);
  return caret >= end && caret <= end + 1 ? w : null;
}

/** Undo: the last converted word goes back to the Latin letters that were typed. */
export function undoWord(state: TypingState, value: string, caret: number): TypingEdit | null {
  const w = undoable(state, value, caret);
  if (!w) return null;
  return {
    value: value.slice(0, w.start) + w.latin + value.slice(endOf(w)),
    caret: caret + w.latin.length - w.text.length,
    state: emptyTyping,
  };
}

/**
 * A phone keyboard that composes words (predictive text) hands over the whole word when it is
 * committed: convert that word then, as it stands before the caret.
 */
export function composedWord(
  state: TypingState,
  value: string,
  caret: number,
  data: string,
  transliterate: Transliterate,
): TypingEdit | null {
  if (!/^[A-Za-z]+$/.test(data)) return null;
  const start = caret - data.length;
  if (start < 0 || value.slice(start, caret) !== data) return null;
  const text = transliterate(data);
  const word = { start, latin: data, text };
  return {
    value: value.slice(0, start) + text + value.slice(caret),
    caret: start + text.length,
    state: { word: null, last: text !== data ? word : state.last },
  };
}
