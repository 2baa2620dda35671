import { sql } from 'drizzle-orm';
import type { ContestRules, ContestStandings, Language } from '@kathamala/domain';
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { conflict, forbidden, invalid, notFound } from '../../errors.ts';
import { recordAudit } from '../community/audit.ts';
import { contestFigures, rankContest, type Contestant } from './contest.ts';
import { campaignsRepo, type CampaignRow } from './repo.ts';
import { notOpen, stateOf, summaryOf } from './service.ts';

const TRACK_NAMES = { sinhala: 'Sinhala', english: 'English', both: 'Sinhala or English' };

/** Writing contests: entries by their authors, the fair ranking, rubric and winners. */
export function contestService(deps: { db: Db; minAgeDays: number }) {
  const { db } = deps;
  const repo = campaignsRepo(db);
  const rows = repo.rows;

  /** A campaign that holds a contest, or 404. */
  const contestOf = async (id: number) => {
    const c = await repo.byId(id);
    if (!c || !c.contest) throw notFound('We could not find that contest.');
    return { ...c, contest: c.contest as ContestRules };
  };

  /** The ranking now: live while the contest runs, the frozen one after its end. */
  const ranking = async (c: CampaignRow & { contest: ContestRules }): Promise<Contestant[]> => {
    if (stateOf(c) !== 'ended')
      return rankContest(c.contest, await contestFigures(db, c, deps.minAgeDays));
    const frozen = (
      await rows<{ ranking: Contestant[] | null }>(
        sql`select frozen_ranking as ranking from campaigns where id = ${c.id}`,
      )
    )[0]?.ranking;
    if (frozen) return frozen;
    const computed = rankContest(c.contest, await contestFigures(db, c, deps.minAgeDays));
    // The first read after the end freezes it; a parallel read that froze first wins.
    const kept = await rows<{ ranking: Contestant[] }>(sql`update campaigns
      set frozen_ranking = coalesce(frozen_ranking, ${JSON.stringify(computed)}::jsonb)
      where id = ${c.id} returning frozen_ranking as ranking`);
    return kept[0]?.ranking ?? computed;
  };

  return {
    /**
     * Enters the author's story while the contest is open. Refused, with the rule named: not
     * their story, the wrong language track, too few published episodes, a story begun before
     * the contest when it must start within it, or already entered.
     */
    enter: async (viewer: Viewer, campaignId: number, storyId: number) => {
      const c = await contestOf(campaignId);
      if (stateOf(c) !== 'running') throw notOpen(c);
      const story = (
        await rows<{
          userId: number | null;
          language: Language;
          createdAt: string;
          parts: number;
        }>(sql`select a.user_id as "userId", s.language, s.created_at as "createdAt",
            (select count(*)::int from episodes e where e.story_id = s.id
              and e.status = 'published' and e.part_number is not null) as parts
          from stories s join authors a on a.id = s.author_id where s.id = ${storyId}`)
      )[0];
      if (!story) throw notFound('We could not find that story.');
      if (story.userId !== viewer.userId)
        throw forbidden('Rule: only a story of your own can be entered in a contest.');
      const rules = c.contest;
      if (rules.track !== 'both' && story.language !== rules.track)
        throw invalid(
          `Rule: language track. This contest takes stories in ${TRACK_NAMES[rules.track]}; this story is in ${TRACK_NAMES[story.language]}.`,
          'storyId',
        );
      if (Number(story.parts) < rules.minEpisodes)
        throw invalid(
          `Rule: minimum episodes. This contest needs at least ${rules.minEpisodes} published episodes; this story has ${story.parts}.`,
          'storyId',
        );
      if (rules.startWithin && new Date(story.createdAt) < new Date(c.startsAt))
        throw invalid(
          'Rule: the story must start within the contest. This story was begun before the contest opened.',
          'storyId',
        );
      const added = await rows<{ id: number }>(sql`insert into campaign_entries
          (campaign_id, story_id, user_id)
        values (${c.id}, ${storyId}, ${viewer.userId})
        on conflict (campaign_id, story_id) do nothing returning id`);
      if (!added.length) throw conflict('This story is already entered in this contest.');
      return { entryId: added[0]!.id, storyId };
    },

    /**
     * `GET /api/v1/stats/campaign/{id}/`: the contest's ranking per track with winners (empty
     * without a contest) and the accepted ad-metrics figures.
     */
    standings: async (campaignId: number): Promise<ContestStandings> => {
      const c = await repo.byId(campaignId);
      if (!c) throw notFound('We could not find that campaign.');
      const list = c.contest ? await ranking({ ...c, contest: c.contest }) : [];
      // Winners are announced after the freeze: read them fresh.
      const places = new Map(
        (
          await rows<{ storyId: number; place: number | null }>(sql`select story_id as "storyId",
            winner_place as place from campaign_entries where campaign_id = ${c.id}`)
        ).map((r) => [r.storyId, r.place]),
      );
      const metrics = (
        await rows<{ impressions: string; clicks: string; spend: string; fetchedAt: string }>(sql`
          select impressions, clicks, spend, fetched_at as "fetchedAt" from campaign_reports
          where campaign_id = ${c.id} and status = 'accepted' order by fetched_at desc, id desc limit 1`)
      )[0];
      return {
        campaign: summaryOf(c),
        frozen: stateOf(c) === 'ended',
        contestantList: list.map((x) => ({ ...x, winnerPlace: places.get(x.storyId) ?? null })),
        adMetrics: metrics
          ? {
              impressions: Number(metrics.impressions),
              clicks: Number(metrics.clicks),
              spend: Number(metrics.spend),
              fetchedAt: new Date(metrics.fetchedAt).toISOString(),
            }
          : null,
      };
    },

    /**
     * Editors' judging: rubric scores (0-100, while the contest runs: the ranking freezes at the
     * end) and, after the end, the winners in order. Audited.
     */
    judge: async (
      editor: Viewer,
      campaignId: number,
      body: { rubric?: { storyId: number; score: number }[]; winners?: number[] },
    ) => {
      const c = await contestOf(campaignId);
      const state = stateOf(c);
      if (body.rubric?.length && state === 'ended')
        throw conflict(
          'The contest has ended and its ranking is frozen: rubric scores can no longer change.',
        );
      if (body.winners && state !== 'ended')
        throw conflict(
          `Winners are announced after the contest ends (${new Date(c.endsAt).toISOString().slice(0, 10)}).`,
        );
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        for (const r of body.rubric ?? []) {
          const done = (await tx.execute(sql`update campaign_entries set rubric = ${r.score}
            where campaign_id = ${c.id} and story_id = ${r.storyId} returning id`)) as unknown as {
            rows: unknown[];
          };
          if (!done.rows.length)
            throw notFound(`Story ${r.storyId} is not entered in this contest.`);
        }
        if (body.winners) {
          await tx.execute(
            sql`update campaign_entries set winner_place = null where campaign_id = ${c.id}`,
          );
          for (const [i, storyId] of body.winners.entries()) {
            const done = (await tx.execute(sql`update campaign_entries set winner_place = ${i + 1}
              where campaign_id = ${c.id} and story_id = ${storyId} returning id`)) as unknown as {
              rows: unknown[];
            };
            if (!done.rows.length)
              throw notFound(`Story ${storyId} is not entered in this contest.`);
          }
        }
        await recordAudit(tx, {
          actorId: editor.userId,
          action: body.winners ? 'campaign.winners' : 'campaign.rubric',
          targetKind: 'campaign',
          targetId: c.id,
          detail: body,
        });
      });
      return { campaignId: c.id };
    },

    /** An author's contest wins, for the badge on their page. */
    badges: async (authorId: number) => ({
      badges: await rows<{ campaignId: number; title: { en: string; si: string }; place: number }>(
        sql`select c.id as "campaignId", json_build_object('en', c.title_en, 'si', c.title_si) as title,
            ce.winner_place as place
          from campaign_entries ce join campaigns c on c.id = ce.campaign_id
          join stories s on s.id = ce.story_id
          where s.author_id = ${authorId} and ce.winner_place is not null
          order by c.ends_at desc, ce.winner_place`,
      ),
    }),
  };
}

export type ContestService = ReturnType<typeof contestService>;
