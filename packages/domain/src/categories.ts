import type { Category } from './schemas/categories.ts';

/** The story categories, served as the site's static /categories.json. */
export const CATEGORIES: readonly Category[] = [
  { slug: 'romance', name: { en: 'Romance', si: 'ප්‍රේම කතා' } },
  { slug: 'mystery', name: { en: 'Mystery', si: 'අභිරහස්' } },
  { slug: 'family', name: { en: 'Family', si: 'පවුලේ කතා' } },
  { slug: 'fantasy', name: { en: 'Fantasy', si: 'මායා ලෝක' } },
  { slug: 'history', name: { en: 'History', si: 'ඉතිහාසය' } },
  { slug: 'adventure', name: { en: 'Adventure', si: 'වික්‍රමාන්විත' } },
  { slug: 'horror', name: { en: 'Horror', si: 'භීෂණ' } },
  { slug: 'humour', name: { en: 'Humour', si: 'හාස්‍ය' } },
];
