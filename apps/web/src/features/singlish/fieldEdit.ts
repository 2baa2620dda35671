/** A plain text field that Singlish typing and legacy paste write into. */
export type Field = HTMLInputElement | HTMLTextAreaElement;

/**
 * Puts a value into a field the way typing would, so React's onChange (controlled fields) and
 * any listener see it: the native setter passes React's own value tracking.
 */
export function applyEdit(el: Field, edit: { value: string; caret: number }) {
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement : HTMLInputElement;
  const setter = Object.getOwnPropertyDescriptor(proto.prototype, 'value')?.set;
  if (setter) setter.call(el, edit.value);
  else el.value = edit.value;
  el.setSelectionRange(edit.caret, edit.caret);
  el.dispatchEvent(new Event('input', { bubbles: true }));
}
