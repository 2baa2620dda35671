import type { SeedAuthor } from '../types.ts';
export const authorsB: SeedAuthor[] = [{ key: 'saman', name: 'සමන් විජේසිංහ', email: 'saman@demo.kathamala.lk' }];
