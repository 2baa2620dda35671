import { Type, type Static } from 'typebox';

/** One entry of the static categories file (/categories.json). */
export const Category = Type.Object({
  slug: Type.String(),
  name: Type.Object({ en: Type.String(), si: Type.String() }),
});
export type Category = Static<typeof Category>;
