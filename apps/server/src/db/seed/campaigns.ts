import { sql } from 'drizzle-orm';
import type { Question } from '@kathamala/domain';
import type { Db } from '../client.ts';
import { DEMO_EDITOR } from './community.ts';

const DAY = 24 * 3600 * 1000;

/** The demo questionnaire: one of each kind, both languages. */
const QUESTIONS: Question[] = [
  {
    id: 'genre',
    kind: 'single',
    required: true,
    label: { en: 'Which kind of story do you like most?', si: 'ඔබ වඩාත්ම කැමති කතා වර්ගය කුමක්ද?' },
    options: [
      { id: 'romance', label: { en: 'Romance', si: 'ප්‍රේම කතා' } },
      { id: 'mystery', label: { en: 'Mystery', si: 'අභිරහස්' } },
      { id: 'history', label: { en: 'Historical', si: 'ඓතිහාසික' } },
      { id: 'children', label: { en: 'Children’s', si: 'ළමා කතා' } },
    ],
  },
  {
    id: 'when',
    kind: 'multiple',
    required: false,
    label: { en: 'When do you read?', si: 'ඔබ කියවන්නේ කවදාද?' },
    options: [
      { id: 'morning', label: { en: 'Morning', si: 'උදේ' } },
      { id: 'bus', label: { en: 'On the bus', si: 'බස් එකේදී' } },
      { id: 'night', label: { en: 'At night', si: 'රාත්‍රියේ' } },
    ],
  },
  {
    id: 'stars',
    kind: 'rating',
    required: true,
    label: { en: 'How much do you enjoy Kathamala?', si: 'කතාමාලා ඔබට කොතරම් රසවත්ද?' },
  },
  {
    id: 'wish',
    kind: 'short',
    required: false,
    label: { en: 'One story you wish we had', si: 'අප ළඟ තිබිය යුතු යැයි ඔබ සිතන කතාවක්' },
  },
];

/**
 * The demo's campaigns, managed by the demo editor: a running reader survey with a few
 * responses and a running writing contest with entries in both language tracks. Runs once,
 * inside the demo seed, after the stories and the community's editor exist.
 */
export async function seedCampaigns(db: Db): Promise<void> {
  const rows = async <T>(q: ReturnType<typeof sql>) =>
    ((await db.execute(q)) as unknown as { rows: T[] }).rows;
  const now = Date.now();
  const at = (days: number) => new Date(now + days * DAY).toISOString();
  const [editor] = await rows<{ id: number }>(
    sql`select id from users where email = ${DEMO_EDITOR}`,
  );
  const editorId = editor ? Number(editor.id) : null;

  const [survey] = await rows<{ id: number }>(sql`insert into campaigns (title_en, title_si,
      description_en, description_si, prizes_en, prizes_si, starts_at, ends_at, created_by)
    values ('Readers’ survey 2026', 'පාඨක සමීක්ෂණය 2026',
      'Tell us what you like to read. It takes two minutes, and every answer helps us choose the next stories.',
      'ඔබ කියවීමට කැමති දේ අපට කියන්න. විනාඩි දෙකක් පමණයි; ඔබේ පිළිතුරු ඊළඟ කතා තෝරා ගැනීමට උදව් වේ.',
      'Ten readers win three months of membership.', 'පාඨකයින් දස දෙනෙකුට මාස තුනක සාමාජිකත්වය.',
      ${at(-3)}, ${at(30)}, ${editorId}) returning id`);
  const [questionnaire] = await rows<{ id: number }>(sql`insert into campaign_questionnaires
      (campaign_id, version, questions)
    values (${survey!.id}, 1, ${JSON.stringify(QUESTIONS)}::jsonb) returning id`);
  const readers = await rows<{ id: number }>(
    sql`select id from users where not is_author and role = 'reader' order by id limit 5`,
  );
  const answers = [
    { genre: 'mystery', when: ['night'], stars: 5, wish: 'ගම්පෙරළිය වැනි කතා' },
    { genre: 'romance', when: ['bus', 'night'], stars: 4 },
    { genre: 'mystery', when: ['morning'], stars: 4, wish: 'More detective serials' },
    { genre: 'history', stars: 3 },
    { genre: 'romance', when: ['night'], stars: 5 },
  ];
  for (const [i, r] of readers.entries()) {
    const mobile = `9477123400${i}`;
    const [p] = await rows<{ id: number }>(sql`insert into campaign_participants (campaign_id,
        questionnaire_id, user_id, mobile, carrier, ref_id, code_hash, expires_at, consumed_at)
      values (${survey!.id}, ${questionnaire!.id}, ${r.id}, ${mobile}, 'dialog',
        ${`demo-${i}`}, '', now(), now()) returning id`);
    await db.execute(sql`insert into campaign_responses (campaign_id, questionnaire_id,
        participant_id, mobile, answers)
      values (${survey!.id}, ${questionnaire!.id}, ${p!.id}, ${mobile},
        ${JSON.stringify(answers[i % answers.length])}::jsonb)`);
  }

  const [contest] = await rows<{ id: number }>(sql`insert into campaigns (title_en, title_si,
      description_en, description_si, prizes_en, prizes_si, starts_at, ends_at, contest, created_by)
    values ('Serial writing contest', 'කතා මාලා රචනා තරඟය',
      'Enter a serial of yours, in Sinhala or English. Readers who follow it decide, fairly: see the rules.',
      'ඔබේ කතා මාලාවක් සිංහලෙන් හෝ ඉංග්‍රීසියෙන් ඉදිරිපත් කරන්න. එය කියවන පාඨකයින් සාධාරණව තීරණය කරයි: නීති බලන්න.',
      'First place in each language: Rs. 25,000 and a featured spot.',
      'එක් එක් භාෂාවේ පළමු ස්ථානයට: රු. 25,000 ක් සහ විශේෂ ප්‍රදර්ශනයක්.',
      ${at(-10)}, ${at(20)},
      ${JSON.stringify({ track: 'both', minEpisodes: 1, startWithin: false, rubricShare: 0.2 })}::jsonb,
      ${editorId}) returning id`);
  // Two stories in each language, by different authors, as entered by their authors.
  const candidates = await rows<{ id: number; authorId: number; userId: number; language: string }>(
    sql`select s.id, s.author_id as "authorId", a.user_id as "userId", s.language
      from stories s join authors a on a.id = s.author_id
      where s.number_of_parts > 0 and (s.release_at is null or s.release_at <= now())
        and a.user_id is not null
      order by s.id`,
  );
  const authorsTaken = new Set<number>();
  const perLanguage = new Map<string, number>();
  for (const c of candidates) {
    if (authorsTaken.has(c.authorId) || (perLanguage.get(c.language) ?? 0) >= 2) continue;
    authorsTaken.add(c.authorId);
    perLanguage.set(c.language, (perLanguage.get(c.language) ?? 0) + 1);
    await db.execute(sql`insert into campaign_entries (campaign_id, story_id, user_id, created_at)
      values (${contest!.id}, ${c.id}, ${c.userId}, now() - interval '5 days')`);
  }
}
