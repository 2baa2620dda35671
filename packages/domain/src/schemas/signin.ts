import { Type, type Static } from 'typebox';

/** The sign-in providers the product knows (issue 31). */
export const SIGN_IN_PROVIDERS = ['google', 'facebook'] as const;
export type SignInProvider = (typeof SIGN_IN_PROVIDERS)[number];
export const isSignInProvider = (name: unknown): name is SignInProvider =>
  (SIGN_IN_PROVIDERS as readonly unknown[]).includes(name);

/**
 * Why a provider sign-in came back to /login (`?signin=...`); the page says each in the reader's
 * language. Nothing was made or linked.
 */
export const SIGN_IN_ERRORS = [
  'cancelled',
  'provider',
  'state',
  'expired',
  'code',
  'no_email',
  'link_required',
  'identity_taken',
  'already_linked',
  'handoff',
] as const;
export type SignInError = (typeof SIGN_IN_ERRORS)[number];
export const isSignInErrorCode = (code: unknown): code is SignInError =>
  (SIGN_IN_ERRORS as readonly unknown[]).includes(code);

const Provider = Type.Union([Type.Literal('google'), Type.Literal('facebook')]);

export const ProviderParam = Type.Object({ provider: Provider }, { additionalProperties: false });

export const SignInStartQuery = Type.Object(
  {
    redirect: Type.Optional(Type.String({ maxLength: 2_000 })),
    link: Type.Optional(Type.Literal('1')),
  },
  { additionalProperties: false },
);

/** The providers that show a button here (configured, or played by the simulator). */
export const SignInProvidersAnswer = Type.Object({
  providers: Type.Array(Provider),
});
export type SignInProvidersAnswer = Static<typeof SignInProvidersAnswer>;

/** Where the browser goes to link a provider (the start call with link=1 answers it). */
export const LinkStartAnswer = Type.Object({ url: Type.String() });

export const HandoffBody = Type.Object(
  { code: Type.String({ minLength: 16, maxLength: 200 }) },
  { additionalProperties: false },
);
export const HandoffAnswer = Type.Object({ accesstoken: Type.String(), redirect: Type.String() });
export type HandoffAnswer = Static<typeof HandoffAnswer>;

export const LinkedProvider = Type.Object({
  provider: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
  linkedAt: Type.String(),
});

/** /account/'s sign-in section: linked providers, the others on offer, and the e-mail's state. */
export const UserProvidersAnswer = Type.Object({
  linked: Type.Array(LinkedProvider),
  available: Type.Array(Type.String()),
  hasPassword: Type.Boolean(),
  email: Type.String(),
  emailVerified: Type.Boolean(),
});
export type UserProvidersAnswer = Static<typeof UserProvidersAnswer>;

export const VerifyEmailBody = Type.Object(
  { token: Type.String({ minLength: 10, maxLength: 2_000 }) },
  { additionalProperties: false },
);
export const VerifyEmailAnswer = Type.Object({ email: Type.String(), verified: Type.Boolean() });
