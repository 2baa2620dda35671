import { Type, type TSchema } from 'typebox';

/** Numeric result codes: 0 is success (SPEC.md 5), anything else a failure. */
export const ResultCode = {
  ok: 0,
  invalidInput: 1,
  unauthorized: 2,
  forbidden: 3,
  notFound: 4,
  conflict: 5,
  tooManyRequests: 6,
  payloadTooLarge: 7,
  subscriptionRequired: 8,
  internal: 9,
  /** Used by the web client only: the request never reached the server. */
  network: -1,
} as const;
export type ResultCode = (typeof ResultCode)[keyof typeof ResultCode];

/** `{code: 0, object}`: the success envelope of every API answer. */
export const Ok = <T extends TSchema>(object: T) => Type.Object({ code: Type.Literal(0), object });

/**
 * `{code, message}`: every failure, with a sentence a person understands; `field` names the
 * input it is about when it is one of the request's fields, so a form can say it there.
 */
export const ErrorBody = Type.Object({
  code: Type.Integer({ minimum: 1 }),
  message: Type.String(),
  field: Type.Optional(Type.String()),
});
export interface ErrorBody {
  code: number;
  message: string;
  field?: string;
}

/** Success is a response code equal to 0 (SPEC.md 5). */
export const isSuccess = (code: unknown): boolean => code === 0;

/** A story preview accepts any code of 0 or above (SPEC.md 5). */
export const isPreviewAccepted = (code: unknown): boolean => typeof code === 'number' && code >= 0;
