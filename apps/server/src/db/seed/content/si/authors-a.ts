import type { SeedAuthor } from '../types.ts';
export const authorsA: SeedAuthor[] = [{ key: 'nilmini', name: 'නිල්මිණි රත්නායක', email: 'nilmini@demo.kathamala.lk', app: { appId: 'APP_NILMINI', keyword: 'REG NILMINI' } }];
