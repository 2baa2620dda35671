import {
  useCallback,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import {
  activeMention,
  ENGAGEMENT,
  insertMention,
  suggestMentions,
  type MentionCandidate,
} from '@kathamala/domain';
import { isApiError } from '../../api/client.ts';
import { useI18n } from '../../i18n/index.tsx';
import { LegacyPasteNotice } from '../singlish/LegacyPasteNotice.tsx';
import { SinglishToggle } from '../singlish/SinglishToggle.tsx';
import { useLegacyPaste } from '../singlish/useLegacyPaste.ts';
import { useSinglishTyping } from '../singlish/useSinglishTyping.ts';
import styles from './comments.module.css';

/** Shown once the text comes this close to the limit. */
const COUNTER_FROM = ENGAGEMENT.commentChars - 200;

/** Characters as the limit counts them (code points, after trimming). */
export const countChars = (text: string): number => Array.from(text.trim()).length;

/** Whether a text may be posted: not empty once trimmed and within the limit (SPEC.md 5). */
export const canPost = (text: string, max: number = ENGAGEMENT.commentChars): boolean => {
  const n = countChars(text);
  return n > 0 && n <= max;
};

/**
 * The one box readers type comments and replies in: a plain <textarea> with @mention suggestions
 * (the writer's followers and the people in the thread), a character counter near the limit and
 * a send button that stays disabled for empty text. With `sendOnEnter` (replies) Enter sends when
 * the trimmed text is not empty and Shift+Enter makes a new line.
 */
export function CommentBox(props: {
  label: string;
  placeholder: string;
  submitLabel: string;
  /** Who may be mentioned; asked for only while a mention is being typed. */
  people: () => MentionCandidate[];
  /** The viewer, never suggested to themselves. */
  viewerId?: number;
  /** Resolves when posted (the box empties); a rejection keeps the text and shows the message. */
  onSubmit: (text: string) => Promise<unknown>;
  sendOnEnter?: boolean;
  autoFocus?: boolean;
  /** The text's limit in characters (a story comment's unless said). */
  maxChars?: number;
  /** May the box be sent as it is? (A community post may be images alone.) */
  canSend?: (text: string) => boolean;
  /** Shown under the text (a post's chosen images). */
  below?: ReactNode;
  /** Shown at the start of the foot, beside the Singlish switch (a post's Add images). */
  tools?: ReactNode;
}) {
  const { t } = useI18n();
  const id = useId();
  const listId = `${id}-mentions`;
  const area = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [focused, setFocused] = useState(false);
  const [active, setActive] = useState(0);
  /** The '@' whose suggestions the reader closed with Escape. */
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState('');
  const nextCaret = useRef<number | null>(null);
  const max = props.maxChars ?? ENGAGEMENT.commentChars;
  const sendable = props.canSend ?? ((value: string) => canPost(value, max));
  // Singlish typing (remembered switch) and FM Abhaya pastes converted, both with an undo.
  const singlish = useSinglishTyping<HTMLTextAreaElement>();
  const legacy = useLegacyPaste();
  const singlishRef = singlish.ref;
  const setArea = useCallback(
    (el: HTMLTextAreaElement | null) => {
      area.current = el;
      singlishRef(el);
    },
    [singlishRef],
  );

  useLayoutEffect(() => {
    const el = area.current;
    if (el && nextCaret.current !== null) {
      el.setSelectionRange(nextCaret.current, nextCaret.current);
      nextCaret.current = null;
    }
  });

  const mention = focused ? activeMention(text, caret) : null;
  const open = mention !== null && mention.start !== dismissed;
  const suggestions = open
    ? suggestMentions(mention.query, props.people(), { exclude: props.viewerId })
    : [];
  const chosen = Math.min(active, Math.max(0, suggestions.length - 1));

  const syncCaret = () => setCaret(area.current?.selectionStart ?? 0);

  const choose = (person: MentionCandidate) => {
    if (!mention) return;
    const next = insertMention(text, mention, person.username);
    setText(next.text);
    setCaret(next.caret);
    setActive(0);
    nextCaret.current = next.caret;
    area.current?.focus();
  };

  const submit = async () => {
    if (!sendable(text) || sending) return;
    setSending(true);
    setError('');
    try {
      await props.onSubmit(text);
      setText('');
      setCaret(0);
      setDismissed(null);
    } catch (e) {
      setError(isApiError(e) && e.message ? e.message : t('comments.postFailed'));
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (open) {
      if (e.key === 'ArrowDown' && suggestions.length > 0) {
        e.preventDefault();
        setActive((chosen + 1) % suggestions.length);
        return;
      }
      if (e.key === 'ArrowUp' && suggestions.length > 0) {
        e.preventDefault();
        setActive((chosen - 1 + suggestions.length) % suggestions.length);
        return;
      }
      if ((e.key === 'Enter' || e.key === 'Tab') && !e.shiftKey && suggestions.length > 0) {
        e.preventDefault();
        choose(suggestions[chosen]!);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        setDismissed(mention.start);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && (props.sendOnEnter || e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      // SPEC.md 5: a reply goes on Enter only when the trimmed text is not empty.
      if (text.trim()) void submit();
    }
  };

  const onFormSubmit = (e: FormEvent) => {
    e.preventDefault();
    void submit();
  };

  const n = countChars(text);
  const over = n > max;
  const counterFrom = max - (ENGAGEMENT.commentChars - COUNTER_FROM);

  return (
    <form method="post" className={styles.box} onSubmit={onFormSubmit}>
      <label htmlFor={`${id}-text`} className="visually-hidden">
        {props.label}
      </label>
      <div className={styles.boxField}>
        <textarea
          id={`${id}-text`}
          ref={setArea}
          className={styles.textarea}
          value={text}
          placeholder={props.placeholder}
          rows={props.sendOnEnter ? 2 : 3}
          autoFocus={props.autoFocus}
          aria-autocomplete="list"
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open && suggestions.length > 0 ? `${listId}-${chosen}` : undefined}
          aria-invalid={over || undefined}
          onChange={(e) => {
            setText(e.target.value);
            setCaret(e.target.selectionStart);
            setActive(0);
            if (error) setError('');
          }}
          onSelect={syncCaret}
          onClick={syncCaret}
          onKeyUp={(e) => {
            if (e.key.startsWith('Arrow') || e.key === 'Home' || e.key === 'End') syncCaret();
          }}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          onKeyDown={onKeyDown}
          onPaste={legacy.onPaste}
        />
        {open && (
          <div className={styles.mentions}>
            {suggestions.length === 0 ? (
              <p id={listId} className={styles.noMentions} role="status">
                {t('comments.noSuggestions')}
              </p>
            ) : (
              <ul id={listId} role="listbox" aria-label={t('comments.mentionsLabel')}>
                {suggestions.map((p, i) => (
                  <li
                    key={p.userId}
                    id={`${listId}-${i}`}
                    role="option"
                    aria-selected={i === chosen}
                    className={styles.mentionOption}
                    // Keep the focus in the box: choosing happens on mouse down.
                    onMouseDown={(e) => {
                      e.preventDefault();
                      choose(p);
                    }}
                  >
                    {`@${p.username}`}
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
      {legacy.converted && <LegacyPasteNotice onUndo={legacy.undo} />}
      {props.below}
      <div className={styles.boxFoot}>
        {props.tools}
        <SinglishToggle variant="bar" undoable={singlish.undoable} onUndo={singlish.undo} />
        {n >= counterFrom && (
          <span className={over ? styles.counterOver : styles.counter} aria-live="polite">
            {t('comments.counter', { n, max })}
          </span>
        )}
        {error && (
          <span className={styles.boxError} role="alert">
            {error}
          </span>
        )}
        <button
          type="submit"
          className={styles.send}
          disabled={!sendable(text) || sending}
          aria-busy={sending || undefined}
        >
          {props.submitLabel}
        </button>
      </div>
    </form>
  );
}
