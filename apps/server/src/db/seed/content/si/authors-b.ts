import type { SeedAuthor } from '../types.ts';
export const authorsB: SeedAuthor[] = [{ key: 'saman', name: 'සමන් විජේසිංහ', email: 'saman@demo.kathamala.lk', bio: 'මහනුවර ජීවත් වන සමන් ඉතිහාසය සහ අභිරහස් කතා ලියයි. රාජධානි යුගයේ සිට අද දක්වා ලංකාවේ කඳුකරයේ සැඟවුණු කතා ඔහු සොයා යයි.' }];
