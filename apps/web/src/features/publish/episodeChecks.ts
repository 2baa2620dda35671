/**
 * What the editor checks before a save, and how a failed request reads to the author. The
 * server checks the same (its limits are AUTHORING's); checking here first saves a round trip
 * and says the reason in the author's language.
 */
import { AUTHORING, episodePlainText } from '@kathamala/domain';
import { isApiError } from '../../api/client.ts';
import type { Translate } from '../../i18n/index.tsx';
import type { Values } from './autosave.ts';

const codePoints = (s: string) => [...s].length;
const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

/** True when the episode's HTML has any text a reader would see. */
export const hasText = (html: string): boolean => episodePlainText(html).trim() !== '';

/** What stops a save, in words for the author; null when it may go. */
export function problemWith(values: Values, publishing: boolean, t: Translate): string | null {
  const title = values.title.trim();
  if (!title || codePoints(title) > AUTHORING.titleMaxChars)
    return t('publish.episodeTitleRule', { max: AUTHORING.titleMaxChars });
  if (utf8Bytes(values.content) > AUTHORING.contentBytes)
    return t('publish.contentTooLong', { kb: AUTHORING.contentBytes / 1024 });
  if (publishing && !hasText(values.content)) return t('publish.contentEmpty');
  return null;
}

/** A failed request in words: no connection, the server's sentence, or a general error. */
export const messageOf = (error: unknown, t: Translate): string =>
  isApiError(error) && error.status === 0
    ? t('publish.offlineAction')
    : isApiError(error) && error.message
      ? error.message
      : t('common.error');
