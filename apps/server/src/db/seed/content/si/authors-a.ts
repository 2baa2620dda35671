import type { SeedAuthor } from '../types.ts';
export const authorsA: SeedAuthor[] = [{ key: 'nilmini', name: 'නිල්මිණි රත්නායක', email: 'nilmini@demo.kathamala.lk', bio: 'ගාල්ලේ උපන් නිල්මිණි දශකයකට වැඩි කාලයක් පාසල් ගුරුවරියක ලෙස සේවය කළාය. ගම්බද පවුල්, මුහුදු වෙරළ සහ අමතක වූ පැරණි කතා ඇයගේ ලේඛනයේ හදවතයි.', app: { appId: 'APP_NILMINI', keyword: 'REG NILMINI' } }];
