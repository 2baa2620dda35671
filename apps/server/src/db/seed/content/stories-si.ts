import type { SeedAuthor, SeedStory } from './types.ts';
import { authorsA } from './si/authors-a.ts';
import { authorsB } from './si/authors-b.ts';
import { story as a1 } from './si/a1.ts';
import { story as a2 } from './si/a2.ts';
import { story as a3 } from './si/a3.ts';
import { story as b1 } from './si/b1.ts';
import { story as b2 } from './si/b2.ts';
import { story as b3 } from './si/b3.ts';
import { story as b4 } from './si/b4.ts';

export const sinhalaAuthors: SeedAuthor[] = [...authorsA, ...authorsB];
export const sinhalaStories: SeedStory[] = [a1, b1, a2, b2, a3, b3, b4];
