import { Type } from 'typebox';

/** A positive database id in a path, e.g. /story/{id}/: digits only. */
export const IdParam = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

export const Language = Type.Union([Type.Literal('sinhala'), Type.Literal('english')]);
export const StoryKind = Type.Union([Type.Literal(0), Type.Literal(2), Type.Literal(3)]);
export type Language = import('typebox').Static<typeof Language>;
