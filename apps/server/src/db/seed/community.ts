import { sql } from 'drizzle-orm';
import { looksSinhala, toStored } from '@kathamala/domain';
import type { Db } from '../client.ts';
import { recordAudit } from '../../modules/community/audit.ts';

/** The demo's editor and admin (password DEMO_PASSWORD), as issue 28 names them. */
export const DEMO_EDITOR = 'editor@demo.kathamala.lk';
export const DEMO_ADMIN = 'admin@demo.kathamala.lk';

const HOUR = 3600 * 1000;

/**
 * The demo feed: who writes, what, and how long ago (hours). Sinhala and English as readers mix
 * them; `@Name` mentions resolve to the demo readers of that name.
 */
const POSTS: { by: string; hours: number; text: string; pinned?: true; story?: true }[] = [
  {
    by: 'Nimal',
    hours: 200,
    pinned: true,
    text: 'Welcome to the Kathamala community! Talk about the stories you read, share the ones you love, and be kind. කතාමාලා ප්‍රජාවට සාදරයෙන් පිළිගනිමු!',
  },
  { by: 'Amaya', hours: 150, text: 'අද රෑ ආයෙත් කතාවක් කියවලා ඉවර කළා. අන්තිම කොටස නම් හරිම ලස්සනයි!' },
  {
    by: 'Chamara',
    hours: 140,
    text: 'Anyone else waiting for the next episode? I refresh the page every hour 😅',
  },
  {
    by: 'Dinithi',
    hours: 120,
    text: 'ශ්‍රී ලංකාවේ ගම්මානයක කතාවක් කියවන්න ආසයි. කාට හරි හොඳ කතාවක් කියන්න පුළුවන්ද?',
  },
  {
    by: 'Harsha',
    hours: 110,
    story: true,
    text: 'This one kept me up all night. Start from part one.',
  },
  {
    by: 'Ishara',
    hours: 96,
    text: 'Reading on the bus to Kandy this morning. The hills and a good story, nothing better.',
  },
  {
    by: 'Lahiru',
    hours: 90,
    text: 'මම ලියපු පළමු කතාව ගැන ඔයාලගේ අදහස් දැනගන්න කැමතියි. @Amaya ඔයා කියෙව්වද?',
  },
  {
    by: 'Nadeesha',
    hours: 80,
    text: 'Tip: the reading settings have a sepia theme. Much easier on the eyes at night.',
  },
  { by: 'Ruwan', hours: 72, text: 'කතාවේ චරිත හරිම සජීවීයි. ලේඛකයාට ස්තූතියි!' },
  {
    by: 'Kasun',
    hours: 60,
    text: 'First time posting here. Hello everyone! I mostly read mysteries.',
  },
  { by: 'Tharushi', hours: 50, text: 'සාමාජිකත්වය ගත්තා. දැන් සියලුම කොටස් කියවන්න පුළුවන් 🎉' },
  { by: 'Amaya', hours: 44, text: '@Chamara the new episode is out! Go go go.' },
  {
    by: 'Chamara',
    hours: 40,
    text: 'Thanks @Amaya! That twist at the end, I did not see it coming.',
  },
  { by: 'Dinithi', hours: 30, text: 'පැරණි ජන කතා නැවත කියවන එක හරිම සතුටක්. ආච්චි කියපු කතා මතක් වෙනවා.' },
  {
    by: 'Harsha',
    hours: 26,
    text: 'Which story should I start next? I finished everything on my list.',
  },
  { by: 'Ishara', hours: 20, text: 'වැස්ස දවසක තේ කෝප්පයක් එක්ක කතාවක්. ඊට වඩා දෙයක් ඕනෙද?' },
  { by: 'Lahiru', hours: 14, text: 'Writing the next chapter tonight. Any guesses what happens?' },
  { by: 'Nadeesha', hours: 8, text: 'මේ සතියේ කියවපු හොඳම කතාව ගැන කියන්න. මම පටන් ගන්නම්!' },
  { by: 'Ruwan', hours: 4, text: 'Good morning readers ☀️ What are you reading today?' },
  { by: 'Kasun', hours: 1, text: 'අලුත් කොටස දැන් කියෙව්වා. ඊළඟ එක ඉක්මනට එනවා නම් හොඳයි!' },
];

const COMMENTS: { on: number; by: string; text: string }[] = [
  { on: 1, by: 'Chamara', text: 'මටත් එහෙමයි! හරිම ලස්සන අවසානයක්.' },
  { on: 2, by: 'Amaya', text: 'Every hour? I set an alert for it instead.' },
  { on: 2, by: 'Ruwan', text: 'Same here 😂' },
  { on: 6, by: 'Amaya', text: 'ඔව් කියෙව්වා! හරිම හොඳයි, දිගටම ලියන්න.' },
  {
    on: 9,
    by: 'Nadeesha',
    text: 'Welcome Kasun! Try the mystery shelf, there are some great ones.',
  },
  { on: 12, by: 'Dinithi', text: 'No spoilers please 🙈' },
  { on: 14, by: 'Harsha', text: 'I recommend anything by the authors on the leaderboard.' },
  { on: 16, by: 'Ishara', text: 'Maybe the letter finally gets opened?' },
  { on: 19, by: 'Tharushi', text: 'ඔව්, ඊළඟ කොටස ගැන මමත් බලාගෙන ඉන්නේ.' },
];

/**
 * Fills the community with the demo's editor and admin and a lively feed in both languages:
 * posts with likes, comments and mentions, follows, a shared story, and one pinned post. Runs
 * once, inside the demo seed, after the stories and readers exist.
 */
export async function seedCommunity(db: Db, passwordHash: string): Promise<void> {
  const rows = async <T>(q: ReturnType<typeof sql>) =>
    ((await db.execute(q)) as unknown as { rows: T[] }).rows;
  const [editor] = await rows<{ id: number }>(sql`
    insert into users (email, password_hash, username, role)
    values (${DEMO_EDITOR}, ${passwordHash}, 'Sanduni', 'editor') returning id`);
  const [admin] = await rows<{ id: number }>(sql`
    insert into users (email, password_hash, username, role)
    values (${DEMO_ADMIN}, ${passwordHash}, 'Admin', 'admin') returning id`);
  // The roles were given by the seed, not by someone: recorded as the command line's.
  for (const [id, role] of [
    [Number(editor!.id), 'editor'],
    [Number(admin!.id), 'admin'],
  ] as const)
    await recordAudit(db, {
      actorId: null,
      action: 'role.grant',
      targetKind: 'user',
      targetId: id,
      reason: 'Demo seed',
      detail: { from: 'reader', to: role },
    });

  const people = new Map(
    (
      await rows<{ id: number; username: string }>(
        sql`select id, username from users where email like '%@demo.kathamala.lk' or is_author`,
      )
    ).map((u) => [u.username, Number(u.id)]),
  );
  // The first Sinhala author stands in for the product's own welcome.
  const nimal = (
    await rows<{ id: number }>(sql`select user_id as id from authors order by id limit 1`)
  )[0];
  if (nimal) people.set('Nimal', Number(nimal.id));
  const idOf = (name: string) => people.get(name) ?? Number(editor!.id);
  const [story] = await rows<{ id: number }>(sql`
    select id from stories where number_of_parts > 0 and release_at <= now()
    order by reads desc limit 1`);

  const now = Date.now();
  const postIds: number[] = [];
  for (const p of POSTS) {
    const text = toStored(p.text);
    const at = new Date(now - p.hours * HOUR);
    const [row] = await rows<{ id: number }>(sql`
      insert into community_posts (user_id, body, lang, created_at, pinned_at, shared_story_id)
      values (${idOf(p.by)}, ${text}, ${looksSinhala(text) ? 'si' : 'en'}, ${at},
        ${p.pinned ? at : null}, ${p.story && story ? Number(story.id) : null})
      returning id`);
    const postId = Number(row!.id);
    postIds.push(postId);
    for (const [name, id] of people)
      if (text.includes(`@${name}`))
        await db.execute(
          sql`insert into community_mentions (user_id, post_id, created_at) values (${id}, ${postId}, ${at})`,
        );
  }
  for (const c of COMMENTS) {
    const postId = postIds[c.on]!;
    const text = toStored(c.text);
    await db.execute(sql`
      insert into community_comments (post_id, user_id, body, lang, created_at)
      select ${postId}, ${idOf(c.by)}, ${text}, ${looksSinhala(text) ? 'si' : 'en'},
        created_at + interval '30 minutes' from community_posts where id = ${postId}`);
  }
  // Likes: every demo reader likes a changing share of the posts (never their own).
  const likers = [...new Set(people.values())];
  const likes = postIds.flatMap((postId, i) =>
    likers
      .filter((_, j) => (i * 7 + j * 3) % 4 !== 0)
      .map((userId) => sql`(${postId}::int, ${userId}::int)`),
  );
  // One statement: the seed runs in every test app, so it stays quick.
  await db.execute(sql`
    insert into community_likes (post_id, user_id)
    select v.post_id, v.user_id from (values ${sql.join(likes, sql`, `)}) as v(post_id, user_id)
    join community_posts p on p.id = v.post_id and p.user_id <> v.user_id
    on conflict do nothing`);
  await db.execute(sql`
    update community_posts p set likes_count =
      (select count(*) from community_likes l where l.post_id = p.id)`);
  // The demo readers follow each other in a ring, and the editor follows everyone.
  const readers = likers;
  for (const [i, id] of readers.entries()) {
    const next = readers[(i + 1) % readers.length]!;
    if (next !== id)
      await db.execute(sql`
        insert into follows (follower_id, followed_id) values (${id}, ${next}) on conflict do nothing`);
  }
}
