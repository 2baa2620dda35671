import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** What a new-story e-mail says about the story, and whether it may go out yet. */
export interface StoryMailContext {
  title: string;
  language: string;
  authorName: string;
  /** The story's release date when it is still ahead, else null. */
  releaseAhead: Date | null;
  /** 'published' unless the episode was withdrawn or deleted since. */
  episodeStatus: string | null;
}

const asDate = (v: Date | string | null) => (v === null ? null : new Date(v));

/** Queries behind the mailing list. Pass a transaction to run inside it. */
export const mailRepo = (db: Db) => {
  const rows = async <T>(query: SQL) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const one = async <T>(query: SQL) => (await rows<T>(query))[0];

  return {
    /**
     * Records a confirmation request unless the address already had `max` in the last hour;
     * answers the request's id, or null when over. Two requests at once queue on a lock.
     */
    addRequest: async (email: string, max: number, windowMinutes: number) => {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`mail:${email}`}))`);
      // Requests outside the window count for nothing: the table keeps only the last hour's.
      await db.execute(sql`
        delete from mail_requests
        where email = ${email}
          and created_at <= now() - make_interval(mins => ${windowMinutes}::int)`);
      const r = await one<{ id: number }>(sql`
        insert into mail_requests (email)
        select ${email}
        where (select count(*) from mail_requests
               where email = ${email}
                 and created_at > now() - make_interval(mins => ${windowMinutes}::int)) < ${max}
        returning id`);
      return r ? Number(r.id) : null;
    },

    /** Puts the address on the list or takes it off; links the account with that address. */
    setSubscribed: async (email: string, subscribed: boolean) => {
      await db.execute(sql`
        insert into mailing_list (email, user_id, subscribed, confirmed_at, updated_at)
        values (${email}, (select id from users where lower(email) = ${email} limit 1),
                ${subscribed}, now(), now())
        on conflict (email) do update set
          subscribed = excluded.subscribed,
          user_id = coalesce(excluded.user_id, mailing_list.user_id),
          confirmed_at = coalesce(mailing_list.confirmed_at, excluded.confirmed_at),
          updated_at = now()`);
    },

    /** The account's address and whether it is subscribed. */
    statusOf: (userId: number) =>
      one<{ email: string; subscribed: boolean | null }>(sql`
        select u.email, m.subscribed
        from users u left join mailing_list m on m.email = lower(u.email)
        where u.id = ${userId}`),

    storyContext: async (storyId: number, episodeId: number) => {
      const r = await one<{
        title: string;
        language: string;
        authorName: string;
        releaseAhead: Date | string | null;
        episodeStatus: string | null;
      }>(sql`
        select s.title, s.language, a.name as "authorName",
          case when s.release_at > now() then s.release_at end as "releaseAhead",
          e.status as "episodeStatus"
        from stories s
        join authors a on a.id = s.author_id
        left join episodes e on e.id = ${episodeId} and e.story_id = s.id
        where s.id = ${storyId}`);
      return r && ({ ...r, releaseAhead: asDate(r.releaseAhead) } satisfies StoryMailContext);
    },

    /**
     * One delivery row per subscribed address for the event; rows already there (a rerun) are
     * left alone. Answers only the addresses given a row just now.
     */
    addDeliveries: async (eventId: number) =>
      (
        await rows<{ email: string }>(sql`
          insert into mail_deliveries (event_id, email)
          select ${eventId}::int, email from mailing_list where subscribed
          on conflict (event_id, email) do nothing
          returning email`)
      ).map((r) => r.email),

    /** Of these addresses, those the event's e-mail has not yet gone to and still on the list. */
    unsent: async (eventId: number, emails: string[]) =>
      emails.length === 0
        ? []
        : (
            await rows<{ email: string }>(sql`
              select d.email from mail_deliveries d
              join mailing_list m on m.email = d.email and m.subscribed
              where d.event_id = ${eventId} and d.sent_at is null
                and d.email in (${sql.join(
                  emails.map((e) => sql`${e}`),
                  sql`, `,
                )})
              order by d.email`)
          ).map((r) => r.email),

    markSent: (eventId: number, email: string) =>
      db.execute(sql`
        update mail_deliveries set sent_at = now()
        where event_id = ${eventId} and email = ${email} and sent_at is null`),
  };
};
