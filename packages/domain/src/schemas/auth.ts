import { Type, type Static } from 'typebox';
import { LIMITS, REFRESH_DEVICE_ID } from '../constants.ts';

const Email = Type.String({ format: 'email', minLength: 3, maxLength: LIMITS.emailChars });
const Password = Type.String({ minLength: 1, maxLength: LIMITS.passwordMaxChars });
export const Username = Type.String({
  minLength: LIMITS.usernameMinChars,
  maxLength: LIMITS.usernameMaxChars,
});

export const SignupBody = Type.Object(
  {
    email: Email,
    password: Type.String({
      minLength: LIMITS.passwordMinChars,
      maxLength: LIMITS.passwordMaxChars,
    }),
    username: Username,
  },
  { additionalProperties: false },
);
export type SignupBody = Static<typeof SignupBody>;

export const LoginBody = Type.Object(
  { email: Email, password: Password },
  { additionalProperties: false },
);
export type LoginBody = Static<typeof LoginBody>;

export const RefreshBody = Type.Object(
  { deviceId: Type.Literal(REFRESH_DEVICE_ID) },
  { additionalProperties: false },
);
export const ChangeUsernameBody = Type.Object(
  { username: Username },
  { additionalProperties: false },
);

export const TokenAnswer = Type.Object({ accesstoken: Type.String() });
export const UsernameAnswer = Type.Object({ username: Type.String() });
export const LogoutAnswer = Type.Object({ loggedOut: Type.Boolean() });

/** Claims the access token carries; the browser reads them after verifying the signature. */
export interface TokenClaims {
  sub: string;
  sid: string;
  name: string;
  author: boolean;
  exp: number;
}

/** The logged-in user as GET /api/v1/user/me answers it. */
export const Me = Type.Object({
  userId: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  author: Type.Boolean(),
});
export type Me = Static<typeof Me>;
