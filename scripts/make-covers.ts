/**
 * Draws the demo covers into apps/server/src/db/seed/covers/<key>.png, so that the seed
 * shows Sinhala titles correctly even on a machine without Sinhala fonts. Run it (on a
 * machine with fonts-noto-core) after changing demo stories: `npx tsx scripts/make-covers.ts`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { renderCover } from '../apps/server/src/modules/covers/art.ts';
import { demoStories } from '../apps/server/src/db/seed/index.ts';
import { englishAuthors } from '../apps/server/src/db/seed/content/stories-en.ts';
import { sinhalaAuthors } from '../apps/server/src/db/seed/content/stories-si.ts';

const out = path.join(import.meta.dirname, '../apps/server/src/db/seed/covers');
await fs.mkdir(out, { recursive: true });
const authors = new Map([...sinhalaAuthors, ...englishAuthors].map((a) => [a.key, a.name]));
for (const story of demoStories()) {
  const png = await renderCover({
    key: story.key,
    title: story.title,
    author: authors.get(story.authorKey) ?? '',
  });
  await fs.writeFile(path.join(out, `${story.key}.png`), png);
  console.log(`${story.key}.png ${png.length} bytes`);
}
