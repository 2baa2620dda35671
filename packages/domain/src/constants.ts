/** Business constants and limits of SPEC.md section 9, in one place. */

export const FEE_RUPEES_PER_MONTH = 50;
export const SHORT_CODES = { default: '77100', mobitel: '77011' } as const;
export const DEFAULT_KEYWORD_PREFIX = 'REG';
export const PRODUCT_KEYWORD = 'REG KATHAMALA';
/** The product's own billing app, used for authors without one of their own. */
export const PRODUCT_APP_ID = 'APP_KATHAMALA';

export const DEFAULT_PAGE = 1;
export const DEFAULT_SORT = 'rate';
export const PAGE_SIZE = 12;
export const MAX_PAGE = 10_000;
export const REFRESH_DEVICE_ID = 'web';
export const COMMENT_PLATFORM = 'web';
export const VIEW_MEDIUM = 'WEB';

export const VIEW_AFTER_MS = 60_000;
export const RATING_DEBOUNCE_MS = 500;
export const MAX_RATING = 5;
export const COMMENTS_SHOWN_INITIALLY = 5;
export const EPISODES_PER_PAGE = 1;
export const RELOAD_AFTER_SUBSCRIBE_MS = 2_000;
export const USERNAME_DISPLAY_CHARS = 12;
export const THOUSANDS_THRESHOLD = 1000;

export const AUDIO_DEFAULT_VOLUME = 50;
export const AUDIO_SEEK_STEP_S = 5;
export const AUDIO_PROGRESS_MS = 1_000;

export const NOTIFICATION_DRAWER_WIDTH = 260;
export const AUDIO_MODAL_WIDTH = 320;
export const SCREEN_GUARD_WIDTH_RATIO = 0.85;
export const SCREEN_GUARD_HEIGHT_RATIO = 0.65;
export const BREAKPOINTS = [575, 576, 768, 992, 1200, 1600] as const;

export const STORY_KINDS = { text: 0, other2: 2, other3: 3 } as const;

/** Limits on what a client may send; chosen here, not in SPEC.md. */
export const LIMITS = {
  bodyBytes: 64 * 1024,
  searchQueryChars: 100,
  emailChars: 254,
  passwordMinChars: 8,
  passwordMaxChars: 200,
  usernameMinChars: 3,
  usernameMaxChars: 30,
} as const;

/** Limits on what an author writes (the authors-publish issue). */
export const AUTHORING = {
  authorNameMinChars: 2,
  authorNameMaxChars: 60,
  bioChars: 2_000,
  titleMaxChars: 120,
  descriptionChars: 2_000,
  /** Episode text, as UTF-8 bytes of the stored HTML. */
  contentBytes: 200 * 1024,
  /** Request body of the episode call: the text plus its JSON envelope. */
  episodeBodyBytes: 300 * 1024,
  coverBytes: 4 * 1024 * 1024,
  coverMaxPixels: 40_000_000,
} as const;

/** Limits on what readers type and do (the readers-engage issue). */
export const ENGAGEMENT = {
  /** Comment and reply text, in characters after trimming. */
  commentChars: 2_000,
  reportReasonChars: 500,
  /** Mention suggestions shown at once. */
  mentionSuggestions: 8,
  /** Trending counts views over this many days. */
  trendingDays: 7,
  /** Bayesian prior for sortBy=rate: this many phantom votes at the site's mean rating. */
  ratingPriorVotes: 5,
  notificationsListed: 50,
} as const;

/** Membership by mobile carrier, SMS alerts and the mailing list (the membership issue). */
export const MEMBERSHIP = {
  codeDigits: 6,
  codeTtlMinutes: 10,
  /** Wrong codes after which a refId is dead. */
  codeMaxTries: 3,
  /** At most this many codes per mobile number in the window. */
  codesPerMobile: 3,
  codesPerMobileWindowMinutes: 15,
  /** At most this many codes per account in the window (several numbers tried). */
  codesPerAccount: 5,
  codesPerAccountWindowMinutes: 60,
  /** A carrier notification this much older or newer than our clock is refused. */
  webhookToleranceSeconds: 300,
  /** Days between monthly charges. */
  chargePeriodDays: 30,
  /** Alert failure message is shown this long; enabled and disabled messages 5 s (SPEC.md 8). */
  alertFailureMs: 10_000,
  alertMessageMs: 5_000,
  /** SMS segment sizes: GSM-7 160/153, UCS-2 (any Sinhala) 70/67 when concatenated. */
  gsm7Single: 160,
  gsm7Part: 153,
  ucs2Single: 70,
  ucs2Part: 67,
  /** Alert SMS are kept to this many segments (the title is shortened to fit). */
  alertMaxSegments: 2,
  mailTokenDays: 365,
} as const;

/** The user-facing sentences of SPEC.md 8 about membership and alerts, exactly. */
export const MEMBERSHIP_MESSAGES = {
  codeRequired: 'Please enter the subscription code which is sent to your mobile number.',
  subscribed: "You've subscribed successfully.",
  subscribeFailed: 'We are unable to subscribe you at this moment. Please contact us.',
  alertsTitle: 'Alerts',
  alertEnabled: 'You will receive a SMS when the next episode is published.',
  alertDisabled: 'SMS alerts are disabled for this story.',
  /** `{keyword}` is the author's SMS keyword. */
  alertFailure: (keyword: string) =>
    `Subscribe to receive story alerts. Type "${keyword}" and send a SMS to 77100 (Dialog, Hutch, Etisalat or Airtel) / 77011 (Mobitel)`,
} as const;

/** The server's sentences about a story's own state, which the web app shows as they are. */
export const STORY_MESSAGES = {
  notOutYet: 'This story is not out yet. Come back on its release day.',
} as const;

/** About how many words of part 1 a visitor reads before the wall (never more than half of it). */
export const OPENING_WORDS = 150;
