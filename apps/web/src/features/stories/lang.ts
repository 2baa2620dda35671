import { looksSinhala, type StoryLanguage } from '@kathamala/domain';

/** The `lang` attribute for a story's own text: 'si' for Sinhala stories, 'en' otherwise. */
export const storyLang = (language: StoryLanguage): 'si' | 'en' =>
  language === 'sinhala' ? 'si' : 'en';

/** The `lang` attribute for a name or other short text of unknown language. */
export const textLang = (text: string): 'si' | undefined => (looksSinhala(text) ? 'si' : undefined);
