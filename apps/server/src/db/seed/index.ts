import fs from 'node:fs/promises';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { toStored } from '@kathamala/domain';
import type { ObjectStorage } from '../../adapters/storage/types.ts';
import { hashPassword } from '../../auth/passwords.ts';
import type { Db } from '../client.ts';
import {
  authors,
  billingApps,
  episodes,
  series,
  stories,
  subscriptions,
  users,
} from '../schema.ts';
import { storiesRepo } from '../../modules/stories/repo.ts';
import { renderCover } from './covers.ts';
import { englishAuthors, englishStories } from './content/stories-en.ts';
import { sinhalaAuthors, sinhalaStories } from './content/stories-si.ts';
import type { SeedStory } from './content/types.ts';

/** Every demo account logs in with this password (README.md says so). */
export const DEMO_PASSWORD = 'kathamala-demo';
export const DEMO_READER = 'reader@demo.kathamala.lk';
export const DEMO_MEMBER = 'member@demo.kathamala.lk';

const DAY = 24 * 3600 * 1000;
const coversDir = path.join(import.meta.dirname, 'covers');

/** The demo stories, interleaved so that lists mix Sinhala and English. */
export const demoStories = (): SeedStory[] => {
  const out: SeedStory[] = [];
  for (let i = 0; i < Math.max(sinhalaStories.length, englishStories.length); i++) {
    if (sinhalaStories[i]) out.push(sinhalaStories[i]!);
    if (englishStories[i]) out.push(englishStories[i]!);
  }
  return out;
};

/** A pre-drawn cover from the repository, else one drawn now. */
async function coverFor(story: SeedStory, authorName: string) {
  try {
    return await fs.readFile(path.join(coversDir, `${story.key}.png`));
  } catch {
    return renderCover({ key: story.key, title: story.title, author: authorName });
  }
}

/** Fills an empty database with demo authors, readers and stories; does nothing otherwise. */
export async function seedDemo(db: Db, storage: ObjectStorage): Promise<boolean> {
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(stories);
  if (n > 0) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  const authorIds = new Map<string, { id: number; name: string }>();
  for (const a of [...sinhalaAuthors, ...englishAuthors]) {
    if (a.app)
      await db
        .insert(billingApps)
        .values({ appId: a.app.appId, name: a.name, keyword: a.app.keyword })
        .onConflictDoNothing();
    const [user] = await db
      .insert(users)
      .values({ email: a.email, passwordHash, username: toStored(a.name), isAuthor: true })
      .returning();
    const [author] = await db
      .insert(authors)
      .values({ userId: user!.id, name: toStored(a.name), appId: a.app?.appId ?? null })
      .returning();
    authorIds.set(a.key, { id: author!.id, name: author!.name });
  }

  await db.insert(users).values({ email: DEMO_READER, passwordHash, username: 'Kasun' });
  const [member] = await db
    .insert(users)
    .values({ email: DEMO_MEMBER, passwordHash, username: 'Tharushi' })
    .returning();
  const apps = await db.select({ appId: billingApps.appId }).from(billingApps);
  for (const app of apps)
    await db
      .insert(subscriptions)
      .values({ userId: member!.id, appId: app.appId, mobile: '94770000001', status: 'active' });

  const seriesIds = new Map<string, number>();
  const now = Date.now();
  const all = demoStories();
  for (const [index, s] of all.entries()) {
    const author = authorIds.get(s.authorKey);
    if (!author) throw new Error(`seed story ${s.key} names unknown author ${s.authorKey}`);
    let seriesId: number | null = null;
    if (s.series) {
      seriesId = seriesIds.get(s.series.key) ?? null;
      if (!seriesId) {
        const [row] = await db
          .insert(series)
          .values({ title: toStored(s.series.title) })
          .returning();
        seriesId = row!.id;
        seriesIds.set(s.series.key, seriesId);
      }
    }
    const upcoming = (s.releaseInDays ?? 0) > 0;
    // Spread past releases over the last weeks so 'new' and 'trending' have an order.
    const releaseAt = new Date(
      upcoming ? now + s.releaseInDays! * DAY : now - (index + 1) * 2 * DAY,
    );
    const [story] = await db
      .insert(stories)
      .values({
        authorId: author.id,
        title: toStored(s.title),
        description: toStored(s.description),
        kind: s.kind,
        membersOnly: s.membersOnly,
        ongoing: s.ongoing,
        language: s.language,
        category: s.category,
        seriesId,
        season: s.series?.season ?? null,
        releaseAt,
        reads: s.reads,
        rating: s.rating,
        createdAt: releaseAt,
        updatedAt: upcoming
          ? new Date(now)
          : new Date(releaseAt.getTime() + (s.episodes.length * DAY) / 2),
      })
      .returning();
    await db.insert(episodes).values(
      s.episodes.map((e, i) => ({
        storyId: story!.id,
        partNumber: i + 1,
        title: toStored(e.title),
        content: toStored(e.content),
        membersOnly: e.membersOnly ?? false,
        publishedAt: upcoming ? releaseAt : new Date(releaseAt.getTime() + (i * DAY) / 2),
      })),
    );
    await storage.put(
      `covers/story_cover_${story!.id}.png`,
      await coverFor(s, author.name),
      'image/png',
    );
  }
  await storiesRepo(db).refreshSearchDoc();
  return true;
}
