import { Type } from 'typebox';

/** A positive database id in a path, e.g. /story/{id}/: digits only. */
export const IdParam = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

/**
 * A choice of constants as one `enum`, not a union of literals: the same check, but an answer's
 * serializer writes it directly instead of testing each branch with a validator per field.
 */
const OneOf = <const T extends readonly (string | number)[]>(
  values: T,
  type: 'string' | 'integer',
) => Type.Unsafe<T[number]>({ type, enum: [...values] });

/** A number or null, serialized without testing branches (see OneOf). */
export const NullableNumber = Type.Unsafe<number | null>({ type: ['number', 'null'] });

export const Language = OneOf(['sinhala', 'english'] as const, 'string');
export const StoryKind = OneOf([0, 2, 3] as const, 'integer');
export type Language = import('typebox').Static<typeof Language>;
