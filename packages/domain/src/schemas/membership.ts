import { Type, type Static } from 'typebox';
import { IdParam } from './common.ts';

/* Membership by mobile carrier (the membership issue). */

/** `mobile` as the reader types it (07X XXX XXXX or +94...); the service normalizes it. */
export const SubscribeBody = Type.Object(
  {
    mobile: Type.String({ maxLength: 30 }),
    appId: Type.String({ minLength: 1, maxLength: 64 }),
    /** The story whose wall the reader joins from: authors' statistics count members gained. */
    storyId: Type.Optional(IdParam),
  },
  { additionalProperties: false },
);
export type SubscribeBody = Static<typeof SubscribeBody>;
export const SubscribeAnswer = Type.Object({
  /** Pass back with the code; it belongs to this account only. */
  refId: Type.String(),
  /** The number the code went to, masked. */
  mobile: Type.String(),
  /** Minutes the code stays valid. */
  expiresInMinutes: Type.Integer(),
});
export type SubscribeAnswer = Static<typeof SubscribeAnswer>;

/** `mfaCode` is a string so that leading zeros survive; the service checks it is 6 digits. */
export const VerifyBody = Type.Object(
  {
    mfaCode: Type.String({ maxLength: 20 }),
    appId: Type.String({ minLength: 1, maxLength: 64 }),
    refId: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);
export type VerifyBody = Static<typeof VerifyBody>;
export const VerifyAnswer = Type.Object({ subscribed: Type.Literal(true), appId: Type.String() });

export const MembershipStatus = Type.Union([
  Type.Literal('active'),
  Type.Literal('lapsed'),
  Type.Literal('ended'),
]);
export const Membership = Type.Object({
  appId: Type.String(),
  /** The app's name (the author's, or Kathamala for the product app). */
  name: Type.String(),
  /** The SMS keyword that joins it, e.g. 'REG KATHAMALA'. */
  keyword: Type.String(),
  /** Masked: '077 XXX X567'. */
  mobile: Type.String(),
  since: Type.String({ format: 'date-time' }),
  status: MembershipStatus,
  /** Null when no further charge is due (ended or lapsed). */
  nextCharge: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  fee: Type.Object({
    amount: Type.Number(),
    currency: Type.Literal('LKR'),
    period: Type.Literal('month'),
  }),
});
export type Membership = Static<typeof Membership>;
export const MembershipDetails = Type.Object({ memberships: Type.Array(Membership) });
export type MembershipDetails = Static<typeof MembershipDetails>;

export const UnsubscribeBody = Type.Object(
  { appId: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);
export const UnsubscribeAnswer = Type.Object({
  subscribed: Type.Literal(false),
  appId: Type.String(),
});

/* SMS alerts. */

export const AlertParams = Type.Object({ id: IdParam }, { additionalProperties: false });
export const AlertAnswer = Type.Object({ alertEnabled: Type.Boolean() });
export type AlertAnswer = Static<typeof AlertAnswer>;

/* Mailing list. */

/** Asks for a confirmation e-mail; the link in it carries the signed token. */
export const MailRequestBody = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 254 }) },
  { additionalProperties: false },
);
export const MailSubscribeBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 2_000 }),
    subscribed: Type.Boolean(),
  },
  { additionalProperties: false },
);
export const MailSubscribeAnswer = Type.Object({
  /** Masked address: 'ka***@example.com'. */
  email: Type.String(),
  subscribed: Type.Boolean(),
});
export type MailSubscribeAnswer = Static<typeof MailSubscribeAnswer>;
