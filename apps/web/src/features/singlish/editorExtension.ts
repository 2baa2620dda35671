import { Extension } from '@tiptap/core';
import { Fragment, Slice, type Node as PmNode, type Schema } from '@tiptap/pm/model';
import { Plugin, PluginKey, type EditorState, type Transaction } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';
import { isLegacySinhala, legacyToUnicode, transliterate } from '@kathamala/domain';
import {
  backspace,
  composedWord,
  emptyTyping,
  endWord,
  typeKey,
  undoable,
  undoWord,
  type TypedWord,
  type TypingEdit,
  type TypingState,
} from './typing.ts';

/** A legacy-font paste that was converted, kept until it can no longer be undone. */
export interface LegacyPaste {
  from: number;
  to: number;
  /** The text as it arrived (FM Abhaya letters), put back by undoLegacyPaste. */
  original: string;
  /** What the converted text reads as now (to know it is still there, unchanged). */
  converted: string;
}

export interface SinglishEditorOptions {
  /** Read on every key, so the remembered switch works without rebuilding the editor. */
  enabled: () => boolean;
  /** The word Undo would give back (shown as a button), or null. */
  onUndoable: (word: TypedWord | null) => void;
  /** A legacy-font paste was converted (show "Converted from FM Abhaya. Undo"), or null. */
  onLegacyPaste: (paste: LegacyPaste | null) => void;
}

const key = new PluginKey('singlish');

// Leaf nodes (a line break) count one position: one character keeps text offsets = positions.
const LEAF = '\ufffc';

/** The caret's textblock as a string whose offsets are positions from `start`. */
function blockAt(state: EditorState, pos: number) {
  const $pos = state.doc.resolve(pos);
  if (!$pos.parent.isTextblock) return null;
  const start = $pos.start();
  return { start, text: $pos.parent.textBetween(0, $pos.parent.content.size, undefined, LEAF) };
}

/** The smallest replacement that turns `before` into `after`. */
function diff(before: string, after: string) {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  return { from: head, to: before.length - tail, insert: after.slice(head, after.length - tail) };
}

/** Text as paragraphs (one per line; blank lines dropped), ready to paste. */
export function textSlice(schema: Schema, text: string): Slice {
  const paragraphs: PmNode[] = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => schema.nodes.paragraph!.create(null, schema.text(line)));
  return paragraphs.length
    ? new Slice(Fragment.from(paragraphs), 1, 1)
    : new Slice(Fragment.empty, 0, 0);
}

/**
 * Singlish typing and legacy-font paste for the episode editor (a ProseMirror plugin): Latin
 * letters typed with the switch on replace the current word's range with its Sinhala; Ctrl+Z
 * right after gives the Latin letters back; FM Abhaya text pasted in arrives as Unicode.
 */
export function singlishEditor(options: SinglishEditorOptions) {
  let typing: TypingState = emptyTyping;
  let block = -1;
  let legacy: LegacyPaste | null = null;

  const apply = (view: EditorView, start: number, before: string, edit: TypingEdit) => {
    const d = diff(before, edit.value);
    const tr = view.state.tr.insertText(d.insert, start + d.from, start + d.to);
    tr.setMeta(key, 'typing');
    view.dispatch(tr);
    typing = edit.state;
    return true;
  };

  /** Runs a typing step on the caret's block; false when it does not apply. */
  const step = (
    view: EditorView,
    run: (value: string, from: number, to: number) => TypingEdit | null,
    from = view.state.selection.from,
    to = view.state.selection.to,
  ) => {
    const b = blockAt(view.state, from);
    if (!b || view.state.doc.resolve(to).start() !== b.start) return false;
    if (b.start !== block) {
      typing = emptyTyping;
      block = b.start;
    }
    const edit = run(b.text, from - b.start, to - b.start);
    return edit ? apply(view, b.start, b.text, edit) : false;
  };

  return Extension.create({
    name: 'singlish',
    addProseMirrorPlugins() {
      return [
        new Plugin({
          key,
          props: {
            // A capital is another letter in this scheme (A = ඇ): no phone auto-capitals or
            // corrections while the switch is on (read again on every editor update).
            attributes: (): Record<string, string> =>
              options.enabled()
                ? { autocapitalize: 'off', autocorrect: 'off', spellcheck: 'false' }
                : {},
            handleTextInput(view, from, to, text) {
              if (!options.enabled()) return false;
              if (step(view, (v, s, e) => typeKey(typing, v, s, e, text, transliterate), from, to))
                return true;
              typing = endWord(typing);
              return false;
            },
            handleKeyDown(view, event) {
              if (!options.enabled()) return false;
              if (event.key === 'Backspace' && !event.ctrlKey && !event.metaKey && !event.altKey) {
                if (step(view, (v, s, e) => backspace(typing, v, s, e, transliterate))) {
                  event.preventDefault();
                  return true;
                }
                return false;
              }
              if (
                (event.ctrlKey || event.metaKey) &&
                !event.shiftKey &&
                event.key.toLowerCase() === 'z'
              ) {
                if (step(view, (v, s) => undoWord(typing, v, s))) {
                  event.preventDefault();
                  return true;
                }
              }
              return false;
            },
            handleDOMEvents: {
              compositionend(view, event) {
                if (!options.enabled()) return false;
                const data = event.data ?? '';
                // The composed word lands in the document after this event.
                setTimeout(() => {
                  step(view, (v, s) => composedWord(typing, v, s, data, transliterate));
                });
                return false;
              },
            },
            handlePaste(view, event) {
              const text = event.clipboardData?.getData('text/plain') ?? '';
              if (!text || !isLegacySinhala(text)) return false;
              const converted = legacyToUnicode(text);
              const from = view.state.selection.from;
              const tr = view.state.tr.replaceSelection(textSlice(view.state.schema, converted));
              tr.setMeta(key, 'legacy').scrollIntoView();
              view.dispatch(tr);
              const to = view.state.selection.to;
              legacy = {
                from,
                to,
                original: text,
                converted: view.state.doc.textBetween(from, to, '\n'),
              };
              options.onLegacyPaste(legacy);
              return true;
            },
          },
          appendTransaction(transactions: readonly Transaction[], _old, state) {
            if (transactions.some((t) => t.getMeta(key) === 'legacy-undo')) legacy = null;
            // Any other change after a converted paste ends the chance to undo it.
            if (legacy && transactions.some((t) => t.docChanged && !t.getMeta(key))) {
              const still = legacy.to <= state.doc.content.size;
              if (
                !still ||
                state.doc.textBetween(legacy.from, legacy.to, '\n') !== legacy.converted
              ) {
                legacy = null;
                options.onLegacyPaste(null);
              }
            }
            return null;
          },
          view: () => ({
            update(view) {
              if (!options.enabled()) return options.onUndoable(null);
              const { from } = view.state.selection;
              const b = blockAt(view.state, from);
              options.onUndoable(
                b && b.start === block ? undoable(typing, b.text, from - b.start) : null,
              );
            },
          }),
        }),
      ];
    },
  });
}

/** Gives the last converted word its Latin letters back (the visible undo button). */
export function undoSinglishWord(view: EditorView): boolean {
  const event = new KeyboardEvent('keydown', { key: 'z', ctrlKey: true, cancelable: true });
  return view.someProp('handleKeyDown', (f) => f(view, event)) ?? false;
}

/** Puts back the legacy text a converted paste replaced; false when it was changed since. */
export function undoLegacyPaste(view: EditorView, paste: LegacyPaste): boolean {
  const { doc, schema } = view.state;
  if (
    paste.to > doc.content.size ||
    doc.textBetween(paste.from, paste.to, '\n') !== paste.converted
  )
    return false;
  const tr = view.state.tr.replace(paste.from, paste.to, textSlice(schema, paste.original));
  tr.setMeta(key, 'legacy-undo');
  view.dispatch(tr);
  return true;
}
