import { STORY_KINDS } from './constants.ts';

export type StoryLanguage = 'sinhala' | 'english';
export type Viewer = 'visitor' | 'reader' | 'subscriber';

/** Whether a viewer may receive an episode's text: the one paywall decision. */
export const canReadEpisode = (
  viewer: Viewer,
  story: { membersOnly: boolean },
  episode?: { membersOnly: boolean },
): boolean => {
  if (viewer === 'visitor') return false;
  const locked = story.membersOnly || (episode?.membersOnly ?? false);
  return !locked || viewer === 'subscriber';
};

/** Which wall a viewer sees instead of the text, or null when they may read. */
export const wallFor = (
  viewer: Viewer,
  story: { membersOnly: boolean },
): 'login' | 'subscribe' | null => {
  if (viewer === 'visitor') return 'login';
  if (story.membersOnly && viewer !== 'subscriber') return 'subscribe';
  return null;
};

const FOOTERS = {
  sinhala: { ongoing: 'මතු සම්බන්ධයි', finished: 'නිමි' },
  english: { ongoing: 'To be continued', finished: 'The End' },
} as const;

/**
 * The end-of-episode footer (SPEC.md 2); null for story kinds 2 and 3. A finished story
 * says 'The End' only after its last episode: earlier ones are still to be continued.
 */
export const episodeFooter = (
  story: { kind: number; ongoing: boolean; language: StoryLanguage },
  isLastPart = true,
): string | null => {
  if (story.kind === STORY_KINDS.other2 || story.kind === STORY_KINDS.other3) return null;
  const texts = story.language === 'sinhala' ? FOOTERS.sinhala : FOOTERS.english;
  return story.ongoing || !isLastPart ? texts.ongoing : texts.finished;
};

/** The cover of a story on the images host (SPEC.md 3). */
export const coverUrl = (imagesHost: string, storyId: number): string =>
  `${imagesHost.replace(/\/$/, '')}/story_cover_${storyId}.png`;

/** The WebP sizes every cover also has, for lists and pages (the .png is for share cards). */
export const coverSizeUrl = (imagesHost: string, storyId: number, width: 160 | 320 | 480): string =>
  `${imagesHost.replace(/\/$/, '')}/story_cover_${storyId}_w${width}.webp`;

/**
 * A srcset over the WebP sizes and the full PNG, so a phone fetches the smallest that is sharp;
 * the PNG (600 px) is there for a cover shown larger than 160 CSS px on a 3x screen.
 */
export const coverSrcSet = (imagesHost: string, storyId: number): string =>
  `${coverSizeUrl(imagesHost, storyId, 160)} 160w, ${coverSizeUrl(imagesHost, storyId, 320)} 320w, ${coverSizeUrl(imagesHost, storyId, 480)} 480w, ${coverUrl(imagesHost, storyId)} 600w`;

/** The canonical details path of a story, with its trailing slash. */
export const detailsPath = (storyId: number, partNumber?: number): string =>
  partNumber ? `/details/${storyId}/${partNumber}/` : `/details/${storyId}/`;

/**
 * C0 and C1 controls, DEL and the backslash: a URL parser drops tabs and newlines and reads `\`
 * as `/`, so `/\t/evil.example` and `/\\evil.example` would leave the site.
 */
// eslint-disable-next-line no-control-regex
const REDIRECT_TRICKS = /[\u0000-\u001f\u007f-\u009f\\]/;

/** Only same-site paths may be redirect targets after login (no open redirects). */
export const safeRedirect = (target: string | null | undefined, fallback = '/'): string => {
  if (!target || !target.startsWith('/') || REDIRECT_TRICKS.test(target)) return fallback;
  // `//host` is another site, and `/.//host` becomes `//host` once its dot segment goes: no
  // path of ours has an empty segment. What is left is a path on this site.
  const path = target.split(/[?#]/, 1)[0]!;
  if (path.includes('//')) return fallback;
  return target;
};
