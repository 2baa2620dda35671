import fs from 'node:fs/promises';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import {
  MEMBERSHIP,
  sriLankaDay,
  toStored,
  type EpisodeInput,
  type StoryInput,
} from '@kathamala/domain';
import type { Viewer } from '../../auth/viewer.ts';
import { hashPassword } from '../../auth/passwords.ts';
import type { Db } from '../client.ts';
import {
  authors,
  billingApps,
  ratings,
  stories,
  storyViews,
  subscriptions,
  users,
} from '../schema.ts';
import { englishAuthors, englishStories } from './content/stories-en.ts';
import { sinhalaAuthors, sinhalaStories } from './content/stories-si.ts';
import type { SeedStory } from './content/types.ts';
import { seedCommunity } from './community.ts';
import { seedCampaigns } from './campaigns.ts';

/**
 * What the seed needs of the publishing module, passed in by buildApp: the demo stories go
 * through the same calls as every author's, and the seed never reaches into a module itself.
 */
export interface SeedPublisher {
  createAuthor(
    userId: number,
    input: { name: string; bio?: string },
  ): Promise<{ id: number; name: string }>;
  saveStory(
    viewer: Viewer,
    input: StoryInput,
    opts: { at: Date; drawCover: false },
  ): Promise<{ storyId: number }>;
  saveEpisode(viewer: Viewer, input: EpisodeInput, opts: { at: Date }): Promise<unknown>;
  /** Puts a cover in place (the list sizes too). */
  storeCover(storyId: number, png: Buffer): Promise<void>;
  /** Draws a cover for a story that has no pre-drawn one. */
  drawCover(story: { key: string; title: string; author: string }): Promise<Buffer>;
  /** Recomputes every story's mean rating, count and score from its rating rows (engagement). */
  recomputeRatings(): Promise<void>;
}

/** Every demo account logs in with this password (README.md says so). */
export const DEMO_PASSWORD = 'kathamala-demo';
export const DEMO_READER = 'reader@demo.kathamala.lk';
export const DEMO_MEMBER = 'member@demo.kathamala.lk';

/**
 * Demo readers whose ratings the demo stories show (password DEMO_PASSWORD). They are members,
 * so their ratings of members-only stories are ones the API would have taken.
 */
export const DEMO_RATERS = [
  { email: 'amaya@demo.kathamala.lk', username: 'Amaya' },
  { email: 'chamara@demo.kathamala.lk', username: 'Chamara' },
  { email: 'dinithi@demo.kathamala.lk', username: 'Dinithi' },
  { email: 'harsha@demo.kathamala.lk', username: 'Harsha' },
  { email: 'ishara@demo.kathamala.lk', username: 'Ishara' },
  { email: 'lahiru@demo.kathamala.lk', username: 'Lahiru' },
  { email: 'nadeesha@demo.kathamala.lk', username: 'Nadeesha' },
  { email: 'ruwan@demo.kathamala.lk', username: 'Ruwan' },
] as const;

const DAY = 24 * 3600 * 1000;

/**
 * One vote per demo rater whose mean is exactly `target`: stars move in half steps, claps
 * (kinds 2 and 3) in whole ones. Votes spread a step either side of the mean in pairs, so the
 * sum stays put. Every story gets as many votes, so the Bayesian order keeps the means' order.
 */
export const demoVotes = (target: number, n: number, step: number, turn: number): number[] => {
  const units = Math.round((target * n) / step);
  const base = Math.floor(units / n);
  const votes = Array.from({ length: n }, (_, i) => (base + (i < units - base * n ? 1 : 0)) * step);
  for (let i = 0; i + 1 < n; i += 4) {
    if (votes[i]! + step <= 5 && votes[i + 1]! - step >= step) {
      votes[i] = votes[i]! + step;
      votes[i + 1] = votes[i + 1]! - step;
    }
  }
  // Rotated per story so each rater's own ratings differ from story to story.
  return votes.map((_, i) => votes[(i + turn) % n]!);
};
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
async function coverFor(publishing: SeedPublisher, story: SeedStory, authorName: string) {
  try {
    return await fs.readFile(path.join(coversDir, `${story.key}.png`));
  } catch {
    return publishing.drawCover({ key: story.key, title: story.title, author: authorName });
  }
}

/** Fills an empty database with demo authors, readers and stories; does nothing otherwise. */
export async function seedDemo(db: Db, publishing: SeedPublisher): Promise<boolean> {
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(stories);
  if (n > 0) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  // Authors register and publish through the same service as everyone else.
  const authorUsers = new Map<string, Viewer>();
  for (const a of [...sinhalaAuthors, ...englishAuthors]) {
    const [user] = await db
      .insert(users)
      .values({ email: a.email, passwordHash, username: toStored(a.name) })
      .returning();
    const author = await publishing.createAuthor(user!.id, { name: a.name, bio: a.bio ?? '' });
    if (a.app) {
      // An author with a billing app of their own (the membership issue makes these real).
      await db
        .insert(billingApps)
        .values({ appId: a.app.appId, name: a.name, keyword: a.app.keyword })
        .onConflictDoNothing();
      await db.update(authors).set({ appId: a.app.appId }).where(eq(authors.id, author.id));
    }
    authorUsers.set(a.key, { userId: user!.id, sessionId: '', name: author.name, author: true });
  }

  await db.insert(users).values({ email: DEMO_READER, passwordHash, username: 'Kasun' });
  const [member] = await db
    .insert(users)
    .values({ email: DEMO_MEMBER, passwordHash, username: 'Tharushi' })
    .returning();
  const raters = await db
    .insert(users)
    .values(DEMO_RATERS.map((r) => ({ email: r.email, passwordHash, username: r.username })))
    .returning({ id: users.id });
  const apps = await db.select({ appId: billingApps.appId }).from(billingApps);
  await db.insert(subscriptions).values(
    [member!, ...raters].flatMap((u, i) =>
      apps.map((app) => ({
        userId: u.id,
        appId: app.appId,
        mobile: `9477000000${i + 1}`.slice(-11),
        status: 'active',
        // As the simulator has them: paid today, the next charge a period from now.
        lastChargedAt: new Date(),
        nextChargeAt: new Date(Date.now() + MEMBERSHIP.chargePeriodDays * 86_400_000),
      })),
    ),
  );
  const votes: { userId: number; storyId: number; rating: number }[] = [];
  const views: (typeof storyViews.$inferInsert)[] = [];

  const firstSeason = new Map<string, number>();
  const now = Date.now();
  for (const [index, s] of demoStories().entries()) {
    const viewer = authorUsers.get(s.authorKey);
    if (!viewer) throw new Error(`seed story ${s.key} names unknown author ${s.authorKey}`);
    const upcoming = (s.releaseInDays ?? 0) > 0;
    // Spread past releases over the last weeks so 'new' and 'trending' have an order.
    const releaseAt = new Date(
      upcoming ? now + s.releaseInDays! * DAY : now - (index + 1) * 2 * DAY,
    );
    const series = s.series ? firstSeason.get(s.series.key) : undefined;
    const { storyId } = await publishing.saveStory(
      viewer,
      {
        title: s.title,
        description: s.description,
        language: s.language,
        kind: s.kind,
        category: s.category,
        membersOnly: s.membersOnly,
        ongoing: s.ongoing,
        releaseDate: releaseAt.toISOString(),
        ...(series ? { seasonOf: series } : {}),
      },
      { at: releaseAt, drawCover: false },
    );
    if (s.series && !series) firstSeason.set(s.series.key, storyId);
    // Episodes went out a few hours apart after the release (upcoming ones are ready and wait).
    const gap = upcoming
      ? 0
      : Math.min(DAY / 2, (now - releaseAt.getTime()) / (s.episodes.length + 1));
    for (const [i, e] of s.episodes.entries()) {
      const at = upcoming ? new Date(now) : new Date(releaseAt.getTime() + i * gap);
      await publishing.saveEpisode(
        viewer,
        {
          storyId,
          title: e.title,
          content: e.content,
          membersOnly: e.membersOnly ?? false,
          status: 'published',
        },
        { at },
      );
    }
    const seen = upcoming
      ? []
      : demoViews(storyId, index, s.episodes.length, releaseAt.getTime(), now, [
          member!.id,
          ...raters.map((r) => r.id),
        ]);
    views.push(...seen);
    // Reads from before views were counted here: the base that counted views add to, so the
    // story shows its seeded reads before and after the roll-up counts the demo's views.
    await db
      .update(stories)
      .set({ reads: s.reads, readsBase: Math.max(0, s.reads - seen.length) })
      .where(eq(stories.id, storyId));
    // The demo raters' votes, whose mean is the story's seeded rating (released stories only).
    if (!upcoming && s.rating > 0)
      demoVotes(s.rating, raters.length, s.kind === 0 ? 0.5 : 1, index).forEach((rating, i) =>
        votes.push({ userId: raters[i]!.id, storyId, rating }),
      );
    await publishing.storeCover(storyId, await coverFor(publishing, s, viewer.name));
  }
  if (votes.length) await db.insert(ratings).values(votes);
  if (views.length) await db.insert(storyViews).values(views);
  await publishing.recomputeRatings();
  await seedCommunity(db, passwordHash);
  await seedCampaigns(db);
  return true;
}

/**
 * The demo readers' counted views of the last four weeks, so statistics, trending and the
 * leaderboard have days to show: each reader who takes up a story reads on from part 1, a part
 * a day or so, and some stop along the way (the drop-off). Deterministic, like the votes.
 */
function demoViews(
  storyId: number,
  index: number,
  parts: number,
  releasedAt: number,
  now: number,
  readers: number[],
): (typeof storyViews.$inferInsert)[] {
  const first = Math.max(releasedAt, now - 27 * DAY);
  const span = Math.max(1, Math.floor((now - first) / DAY));
  const out: (typeof storyViews.$inferInsert)[] = [];
  readers.forEach((userId, j) => {
    // About two readers in three take a story up.
    if ((index + j) % 3 === 2) return;
    let day = first + ((index * 3 + j * 5) % span) * DAY;
    for (let part = 1; part <= parts && day <= now; part++) {
      const at = new Date(day);
      out.push({ storyId, userId, partNumber: part, day: sriLankaDay(at), createdAt: at });
      // One reader in four of those still reading stops after each part.
      if ((index * 7 + j * 11 + part * 13) % 4 === 0) break;
      day += (1 + ((j + part) % 2)) * DAY;
    }
  });
  return out;
}
