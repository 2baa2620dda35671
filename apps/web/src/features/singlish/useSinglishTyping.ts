import { useCallback, useEffect, useRef, useState } from 'react';
import { transliterate } from '@kathamala/domain';
import { useSinglishOn } from './settings.ts';
import {
  backspace,
  composedWord,
  dropWord,
  emptyTyping,
  endWord,
  typeKey,
  undoable,
  undoWord,
  type TypedWord,
  type TypingEdit,
  type TypingState,
} from './typing.ts';
import { applyEdit, type Field } from './fieldEdit.ts';

/**
 * Singlish typing for a plain input or textarea: with the remembered switch on, Latin letters
 * turn into Sinhala as they are typed (the word's Latin letters are kept and re-transliterated
 * on every key; a space or punctuation ends the word). Ctrl+Z, or `undo()`, gives the last
 * word's Latin letters back. Everything happens in the browser: no network call while typing.
 */
export function useSinglishTyping<T extends Field>() {
  const on = useSinglishOn();
  const onRef = useRef(on);
  const [el, setEl] = useState<T | null>(null);
  const state = useRef<TypingState>(emptyTyping);
  const [canUndo, setCanUndo] = useState<TypedWord | null>(null);

  useEffect(() => {
    onRef.current = on;
    if (!on) {
      state.current = emptyTyping;
      setCanUndo(null);
    }
  }, [on]);

  // Phone keyboards capitalise a sentence's first letter and "correct" Latin words; in this
  // scheme a capital means another letter (A = ඇ), so both are off while the switch is on.
  useEffect(() => {
    if (!el) return;
    const saved = ['autocapitalize', 'autocorrect', 'spellcheck'].map(
      (name) => [name, el.getAttribute(name)] as const,
    );
    if (on) {
      el.setAttribute('autocapitalize', 'off');
      el.setAttribute('autocorrect', 'off');
      el.setAttribute('spellcheck', 'false');
    }
    return () => {
      for (const [name, value] of saved)
        if (value === null) el.removeAttribute(name);
        else el.setAttribute(name, value);
    };
  }, [el, on]);

  const refresh = useCallback((field: Field) => {
    const caret = field.selectionStart ?? field.value.length;
    setCanUndo(undoable(state.current, field.value, caret));
  }, []);

  const run = useCallback(
    (field: Field, edit: TypingEdit | null) => {
      if (!edit) return false;
      state.current = edit.state;
      applyEdit(field, edit);
      refresh(field);
      return true;
    },
    [refresh],
  );

  useEffect(() => {
    if (!el) return;
    const sel = () => [el.selectionStart ?? el.value.length, el.selectionEnd ?? el.value.length];
    const onBeforeInput = (e: InputEvent) => {
      if (!onRef.current || e.isComposing) return;
      const [start, end] = sel() as [number, number];
      if (e.inputType === 'insertText' && e.data) {
        const edit = typeKey(state.current, el.value, start, end, e.data, transliterate);
        if (edit) {
          e.preventDefault();
          run(el, edit);
        } else {
          state.current = endWord(state.current);
        }
      } else if (e.inputType === 'deleteContentBackward') {
        const edit = backspace(state.current, el.value, start, end, transliterate);
        if (edit) {
          e.preventDefault();
          run(el, edit);
        } else state.current = dropWord(state.current);
      } else {
        state.current = dropWord(state.current);
      }
    };
    const onKeyDown = (e: KeyboardEvent) => {
      if (!onRef.current) return;
      if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === 'z') {
        const [caret] = sel() as [number, number];
        if (run(el, undoWord(state.current, el.value, caret))) e.preventDefault();
      }
    };
    const onCompositionEnd = (e: CompositionEvent) => {
      if (!onRef.current) return;
      // The composed text lands after this event in some browsers: look once it has.
      queueMicrotask(() => {
        const [caret] = sel() as [number, number];
        run(el, composedWord(state.current, el.value, caret, e.data ?? '', transliterate));
      });
    };
    // After the page's own input handlers: a state change in between would let React put a
    // controlled field's old value back before its onChange saw the new one.
    const onInput = () => setTimeout(() => refresh(el), 0);
    // Listeners typed by event name need a plain element, not the generic field type.
    const target: HTMLElement = el;
    target.addEventListener('beforeinput', onBeforeInput);
    target.addEventListener('keydown', onKeyDown);
    target.addEventListener('compositionend', onCompositionEnd);
    target.addEventListener('input', onInput);
    target.addEventListener('click', onInput);
    return () => {
      target.removeEventListener('beforeinput', onBeforeInput);
      target.removeEventListener('keydown', onKeyDown);
      target.removeEventListener('compositionend', onCompositionEnd);
      target.removeEventListener('input', onInput);
      target.removeEventListener('click', onInput);
    };
  }, [el, run, refresh]);

  /** Gives the last converted word its Latin letters back (the visible undo). */
  const undo = useCallback(() => {
    if (!el) return;
    const caret = el.selectionStart ?? el.value.length;
    if (run(el, undoWord(state.current, el.value, caret))) el.focus();
  }, [el, run]);

  return { ref: setEl, on, undoable: on ? canUndo : null, undo };
}
