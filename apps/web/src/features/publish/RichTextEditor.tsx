import { useEffect, useRef, useState, type ReactNode } from 'react';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Placeholder } from '@tiptap/extensions';
import { useI18n } from '../../i18n/index.tsx';
import {
  singlishEditor,
  undoLegacyPaste,
  undoSinglishWord,
  type LegacyPaste,
} from '../singlish/editorExtension.ts';
import { useSinglishOn } from '../singlish/settings.ts';
import { LegacyPasteNotice } from '../singlish/LegacyPasteNotice.tsx';
import { SinglishToggle } from '../singlish/SinglishToggle.tsx';
import type { TypedWord } from '../singlish/typing.ts';
import styles from './publish.module.css';

/**
 * The stored form allows paragraphs, bold, italic, line breaks and scene breaks (<hr>) only,
 * so the editor offers exactly those: whatever else is pasted in arrives as plain paragraphs.
 */
const extensions = [
  StarterKit.configure({
    heading: false,
    blockquote: false,
    bulletList: false,
    orderedList: false,
    listItem: false,
    listKeymap: false,
    code: false,
    codeBlock: false,
    strike: false,
    underline: false,
    link: false,
  }),
];

/** Long-form text editor (TipTap): calls onChange with the HTML after every change. */
export function RichTextEditor(props: {
  initialHtml: string;
  lang: 'si' | 'en';
  label: string;
  placeholder: string;
  onChange: (html: string) => void;
  /** Ctrl/Cmd+S. */
  onSaveShortcut?: () => void;
  hidden?: boolean;
}) {
  const { t } = useI18n();
  const onChange = useRef(props.onChange);
  const onSave = useRef(props.onSaveShortcut);
  useEffect(() => {
    onChange.current = props.onChange;
    onSave.current = props.onSaveShortcut;
  });
  // Singlish typing reads the remembered switch on every key; the editor is built once.
  const singlishOn = useSinglishOn();
  const singlishRef = useRef(singlishOn);
  useEffect(() => {
    singlishRef.current = singlishOn;
  }, [singlishOn]);
  const [undoable, setUndoable] = useState<TypedWord | null>(null);
  const [legacyPaste, setLegacyPaste] = useState<LegacyPaste | null>(null);
  const [singlish] = useState(() =>
    singlishEditor({
      enabled: () => singlishRef.current,
      onUndoable: setUndoable,
      onLegacyPaste: setLegacyPaste,
    }),
  );

  const editor = useEditor({
    extensions: [
      ...extensions,
      Placeholder.configure({ placeholder: props.placeholder }),
      singlish,
    ],
    content: props.initialHtml,
    // Rendered in the browser only (this page has nothing to show before the session is known).
    immediatelyRender: false,
    shouldRerenderOnTransaction: false,
    // Styles come from publish.module.css: no <style> element injected (a strict CSP refuses it).
    injectCSS: false,
    editorProps: {
      attributes: {
        class: styles.editable!,
        lang: props.lang,
        'aria-label': props.label,
        'aria-multiline': 'true',
        role: 'textbox',
        spellcheck: 'true',
      },
      handleKeyDown: (_view, event) => {
        if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
          event.preventDefault();
          onSave.current?.();
          return true;
        }
        return false;
      },
    },
    onUpdate: ({ editor: e }) => onChange.current(e.getHTML()),
  });

  return (
    <div className={styles.editorFrame} hidden={props.hidden}>
      {editor && (
        <Toolbar
          editor={editor}
          singlish={
            <SinglishToggle
              variant="bar"
              undoable={undoable}
              onUndo={() => {
                undoSinglishWord(editor.view);
                editor.commands.focus();
              }}
            />
          }
        />
      )}
      {editor && legacyPaste && (
        <div className={styles.legacyPaste}>
          <LegacyPasteNotice
            onUndo={() => {
              undoLegacyPaste(editor.view, legacyPaste);
              setLegacyPaste(null);
              editor.commands.focus();
            }}
          />
        </div>
      )}
      {editor ? (
        <EditorContent editor={editor} />
      ) : (
        <div className={styles.editable} aria-busy="true">
          <span className="visually-hidden">{t('common.loading')}</span>
        </div>
      )}
    </div>
  );
}

function Toolbar({ editor, singlish }: { editor: Editor; singlish: ReactNode }) {
  const { t } = useI18n();
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });

  const button = (
    label: string,
    glyph: string,
    run: () => void,
    opts: { pressed?: boolean; disabled?: boolean; className?: string } = {},
  ) => (
    <button
      type="button"
      className={`${styles.tool} ${opts.className ?? ''}`}
      aria-label={label}
      title={label}
      aria-pressed={opts.pressed}
      disabled={opts.disabled}
      // Keep the selection in the text while the button is pressed.
      onMouseDown={(e) => e.preventDefault()}
      onClick={run}
    >
      <span aria-hidden="true">{glyph}</span>
    </button>
  );

  return (
    <div className={styles.toolbar} role="toolbar" aria-label={t('publish.toolbar')}>
      {button(t('publish.bold'), 'B', () => editor.chain().focus().toggleBold().run(), {
        pressed: state.bold,
        className: styles.toolBold,
      })}
      {button(t('publish.italic'), 'I', () => editor.chain().focus().toggleItalic().run(), {
        pressed: state.italic,
        className: styles.toolItalic,
      })}
      {button(t('publish.sceneBreak'), '⁂', () => editor.chain().focus().setHorizontalRule().run())}
      <span className={styles.toolGap} aria-hidden="true" />
      {button(t('publish.undo'), '↶', () => editor.chain().focus().undo().run(), {
        disabled: !state.canUndo,
      })}
      {button(t('publish.redo'), '↷', () => editor.chain().focus().redo().run(), {
        disabled: !state.canRedo,
      })}
      {singlish}
    </div>
  );
}
