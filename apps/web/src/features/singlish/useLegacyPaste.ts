import { useCallback, useState, type ClipboardEvent } from 'react';
import { isLegacySinhala, legacyToUnicode } from '@kathamala/domain';
import { applyEdit, type Field } from './fieldEdit.ts';

interface Converted {
  start: number;
  original: string;
  text: string;
}

/**
 * Legacy-font paste for a plain text field: text typed in FM Abhaya (Latin letters that only
 * look Sinhala in that font) arrives as Unicode Sinhala; `undo()` puts the pasted original back
 * while the converted text is still there. Plain English pastes are left to the browser.
 */
export function useLegacyPaste() {
  const [converted, setConverted] = useState<(Converted & { field: Field }) | null>(null);

  const onPaste = useCallback((e: ClipboardEvent<Field>) => {
    const original = e.clipboardData.getData('text/plain');
    if (!original || !isLegacySinhala(original)) return;
    e.preventDefault();
    const field = e.currentTarget;
    const start = field.selectionStart ?? field.value.length;
    const end = field.selectionEnd ?? start;
    const text = legacyToUnicode(original);
    applyEdit(field, {
      value: field.value.slice(0, start) + text + field.value.slice(end),
      caret: start + text.length,
    });
    setConverted({ field, start, original, text });
  }, []);

  const undo = useCallback(() => {
    if (!converted) return;
    const { field, start, original, text } = converted;
    if (field.value.slice(start, start + text.length) === text) {
      applyEdit(field, {
        value: field.value.slice(0, start) + original + field.value.slice(start + text.length),
        caret: start + original.length,
      });
      field.focus();
    }
    setConverted(null);
  }, [converted]);

  return { onPaste, converted: converted !== null, undo, dismiss: () => setConverted(null) };
}
