import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  apiPaths,
  MEMBERSHIP_MESSAGES,
  PRODUCT_APP_ID,
  PRODUCT_KEYWORD,
  ResultCode,
  smsSegments,
} from '@kathamala/domain';
import { bearer, createTestApp, userOf, type TestApp } from '../../test/helpers.ts';
import type { SimulatedSms } from '../../adapters/simulator/simulator.ts';
import { CarrierError } from '../../adapters/billing/types.ts';
import { alertsService, type AlertsJob, type AlertsService } from './service.ts';

let t: TestApp;
/** The same service the app runs, to call the fan-out directly (and twice). */
let alerts: AlertsService;
beforeAll(async () => {
  t = await createTestApp({ JOB_POLL_SECONDS: '1' });
  // The simulator posts phones' SMS (STOP) to our webhook, which it learns once we listen.
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  alerts = alertsService({
    db: t.database.db,
    queue: t.queue,
    sms: t.carrier.sms,
    publicUrl: 'http://kathamala.test',
  });
});
afterAll(() => t.close());

const sim = () => t.carrier.simulator!;
let mobiles = 0;
/** A fresh Dialog number (77100) for each reader. */
const newMobile = () => `9477${String(1_000_000 + ++mobiles * 7919).slice(-7)}`;

/** An active membership of `appId` for the reader's new mobile, as the carrier would report it. */
async function subscribe(token: string, appId = PRODUCT_APP_ID) {
  const mobile = newMobile();
  await t.rows(sql`insert into subscriptions (user_id, app_id, mobile, status)
    values (${userOf(token)}, ${appId}, ${mobile}, 'active')`);
  sim().provision([{ appId, mobile }]);
  return mobile;
}

const toggle = (token: string | null, storyId: number) =>
  t.app.inject({
    method: 'GET',
    url: apiPaths.alert(storyId),
    headers: token ? bearer(token) : {},
  });

const alertOn = async (token: string, storyId: number) => {
  const res = await toggle(token, storyId);
  expect(res.json()).toEqual({ code: 0, object: { alertEnabled: true } });
};

const smsTo = (mobile: string): SimulatedSms[] =>
  sim()
    .outbox()
    .filter((m) => m.to === mobile);
/**
 * Alert SMS to a mobile, of one episode when given. (An alert turned on just after an episode
 * went out, before its job ran, gets that episode's SMS too.)
 */
const alertsTo = (mobile: string, storyId?: number, n?: number) =>
  smsTo(mobile).filter(
    (m) =>
      m.ref?.startsWith('alert:') &&
      (storyId === undefined || m.text.endsWith(`/details/${storyId}/${n}/`)),
  );

async function waitFor(check: () => Promise<boolean> | boolean, what: string, ms = 20_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Publishes an episode through the API and answers the fan-out job its event started. */
async function publish(token: string, storyId: number, title = 'Part') {
  const episodeId = await t.publishEpisode(token, storyId, title);
  const [event] = await t.rows<{ id: number; payload: string }>(
    sql`select id, payload from events where type = 'episode.published'
      and (payload::jsonb ->> 'episodeId')::int = ${episodeId}`,
  );
  return { eventId: event!.id, ...JSON.parse(event!.payload) } as AlertsJob;
}

/** Waits until the event's deliveries are all out (the app's own worker runs the job). */
const settled = (eventId: number) =>
  waitFor(async () => {
    const [r] = await t.rows<{ pending: number; done: number }>(sql`
      select count(*) filter (where status = 'pending')::int as pending,
        (select count(*)::int from pgboss.job where name = 'sms.alerts'
          and data ->> 'eventId' = ${String(eventId)} and state = 'completed') as done
      from alert_deliveries where event_id = ${eventId}`);
    return r!.pending === 0 && r!.done > 0;
  }, `the alerts of event ${eventId}`);

describe('the alert toggle', () => {
  it('needs a login and a public story', async () => {
    expect((await toggle(null, 1)).statusCode).toBe(401);
    const reader = await t.signup();
    const res = await toggle(reader, 999_999);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe(ResultCode.notFound);
    // A draft story (nothing out yet) is no more there than a missing one.
    const author = await t.newAuthor();
    const draft = await t.createStory(author.token);
    expect((await toggle(reader, draft)).statusCode).toBe(404);
  });

  it("fails with the author's keyword when the reader's mobile is not subscribed", async () => {
    const author = await t.newAuthor();
    const storyId = await t.createStory(author.token);
    await t.publishEpisode(author.token, storyId);
    const reader = await t.signup();
    const res = await toggle(reader, storyId);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      code: ResultCode.subscriptionRequired,
      message: MEMBERSHIP_MESSAGES.alertFailure(PRODUCT_KEYWORD),
    });

    // An author with an app of their own: their keyword, and the product app does not count.
    await t.rows(sql`insert into billing_apps (app_id, name, keyword)
      values ('APP_ALERTS_TEST', 'Alerts test', 'REG ALERTSTEST')`);
    sim().learnApps([{ appId: 'APP_ALERTS_TEST', name: 'Alerts test', keyword: 'REG ALERTSTEST' }]);
    await t.rows(sql`update authors set app_id = 'APP_ALERTS_TEST' where id = ${author.authorId}`);
    await subscribe(reader, PRODUCT_APP_ID);
    const other = await toggle(reader, storyId);
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe(MEMBERSHIP_MESSAGES.alertFailure('REG ALERTSTEST'));
    await subscribe(reader, 'APP_ALERTS_TEST');
    await alertOn(reader, storyId);

    // A lapsed membership is no membership.
    const lapsed = await t.signup();
    const mobile = await subscribe(lapsed, 'APP_ALERTS_TEST');
    await t.rows(sql`update subscriptions set status = 'lapsed' where mobile = ${mobile}`);
    expect((await toggle(lapsed, storyId)).statusCode).toBe(403);
  });

  it('a members-only story needs a subscription', async () => {
    const author = await t.newAuthor();
    const storyId = await t.createStory(author.token, { membersOnly: true });
    await t.publishEpisode(author.token, storyId);
    const reader = await t.signup();
    const res = await toggle(reader, storyId);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(ResultCode.subscriptionRequired);
    await subscribe(reader);
    await alertOn(reader, storyId);
  });

  it('turns on and off, and the details say so', async () => {
    const author = await t.newAuthor();
    const storyId = await t.createStory(author.token);
    await t.publishEpisode(author.token, storyId);
    const reader = await t.signup();
    const mobile = await subscribe(reader);
    const details = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: apiPaths.preview(storyId),
          headers: bearer(reader),
        })
      ).json().object.alertEnabled as boolean;
    expect(await details()).toBe(false);

    // Turning an alert on is new consent: an earlier STOP from the mobile is lifted.
    await t.rows(sql`insert into sms_opt_outs (mobile) values (${mobile})`);
    await alertOn(reader, storyId);
    expect(await details()).toBe(true);
    expect(await t.rows(sql`select 1 from sms_opt_outs where mobile = ${mobile}`)).toHaveLength(0);

    const off = await toggle(reader, storyId);
    expect(off.json()).toEqual({ code: 0, object: { alertEnabled: false } });
    expect(await details()).toBe(false);

    // Off never needs a subscription: a reader whose membership ended may still silence it.
    await alertOn(reader, storyId);
    await t.rows(sql`update subscriptions set status = 'ended' where mobile = ${mobile}`);
    expect((await toggle(reader, storyId)).json().object.alertEnabled).toBe(false);
    expect((await toggle(reader, storyId)).statusCode).toBe(403);
  });
});

describe('alert SMS when an episode is published', () => {
  it('one SMS to each alert subscriber, none to others, none twice', async () => {
    const author = await t.newAuthor();
    const storyId = await t.createStory(author.token, { title: 'The Lantern Keeper' });
    await t.publishEpisode(author.token, storyId);

    const fans = await Promise.all([t.signup(), t.signup(), t.signup()]);
    const fanMobiles = [];
    for (const fan of fans) {
      fanMobiles.push(await subscribe(fan));
      await alertOn(fan, storyId);
    }
    // Subscribed without the alert; an alert row without a subscription (it ended); opted out.
    const noAlert = await subscribe(await t.signup());
    const ended = await t.signup();
    const endedMobile = await subscribe(ended);
    await alertOn(ended, storyId);
    await t.rows(sql`update subscriptions set status = 'ended' where mobile = ${endedMobile}`);
    const stopped = await t.signup();
    const stoppedMobile = await subscribe(stopped);
    await alertOn(stopped, storyId);
    await t.rows(sql`insert into sms_opt_outs (mobile) values (${stoppedMobile})`);

    const job = await publish(author.token, storyId);
    expect(job.partNumber).toBe(2);
    await settled(job.eventId);
    for (const mobile of fanMobiles) {
      const got = alertsTo(mobile, storyId, 2);
      expect(got).toHaveLength(1);
      expect(got[0]!.text).toBe(
        `New on Kathamala: "The Lantern Keeper", episode 2. Read it: http://kathamala.test/details/${storyId}/2/`,
      );
    }
    for (const mobile of [noAlert, endedMobile, stoppedMobile])
      expect(alertsTo(mobile, storyId, 2)).toHaveLength(0);

    // The job run again, twice at once: nothing new is planned and no one gets a second SMS.
    const before = sim().outbox().length;
    const again = await Promise.all([alerts.fanOut(job), alerts.fanOut({ ...job, resume: true })]);
    expect(again).toEqual([
      { planned: 0, sent: 0, more: false },
      { planned: 0, sent: 0, more: false },
    ]);
    // Even rows forced back to pending go out again with the same ref, and the carrier drops them.
    await t.rows(
      sql`update alert_deliveries set status = 'pending' where event_id = ${job.eventId}`,
    );
    expect(await alerts.fanOut(job)).toEqual({ planned: 0, sent: 3, more: false });
    expect(sim().outbox().length).toBe(before);
    for (const mobile of fanMobiles) expect(alertsTo(mobile, storyId, 2)).toHaveLength(1);
  });

  it('a Sinhala story alerts in Sinhala, within two UCS-2 segments', async () => {
    const author = await t.newAuthor();
    const title = 'ශ්\u200Dරී ලංකාවේ දකුණු වෙරළේ පැරණි ප්\u200Dරදීපාගාරයේ අභිරහස සහ රෑ එළිය නොවූ මුහුදු කතාව';
    const storyId = await t.createStory(author.token, {
      title,
      language: 'sinhala',
      category: 'mystery',
    });
    await t.publishEpisode(author.token, storyId);
    const fan = await t.signup();
    const mobile = await subscribe(fan);
    await alertOn(fan, storyId);
    const job = await publish(author.token, storyId);
    await settled(job.eventId);
    const [got] = alertsTo(mobile, storyId, 2);
    expect(got!.text).toContain('2 වන කොටස');
    expect(got!.text).toContain(title.slice(0, 10));
    expect(got!.text.endsWith(`/details/${storyId}/2/`)).toBe(true);
    expect(smsSegments(got!.text)).toMatchObject({ encoding: 'UCS-2' });
    expect(smsSegments(got!.text).segments).toBeLessThanOrEqual(2);
  });

  it('a story released later sends its alerts only at the release', async () => {
    const author = await t.newAuthor();
    const releaseAt = new Date(Date.now() + 3 * 86_400_000);
    const storyId = await t.createStory(author.token, { releaseDate: releaseAt.toISOString() });
    const job = await publish(author.token, storyId);
    const result = await alerts.fanOut(job);
    expect(result).toHaveProperty('deferTo');
    expect(
      await t.rows(sql`select 1 from alert_deliveries where event_id = ${job.eventId}`),
    ).toHaveLength(0);
  });

  it('a carrier failure fails the job; what was sent stays sent and the retry sends the rest', async () => {
    const author = await t.newAuthor();
    const storyId = await t.createStory(author.token);
    const first = await publish(author.token, storyId);
    const episodeId = first.episodeId;
    // Its own fan-out done before anyone turns an alert on: the SMS below are ours only.
    await settled(first.eventId);
    const fans = await Promise.all(Array.from({ length: 6 }, () => t.signup()));
    const fanMobiles: string[] = [];
    for (const fan of fans) {
      fanMobiles.push(await subscribe(fan));
      await alertOn(fan, storyId);
    }
    // An event of our own, without the app's worker on it: only the services below send.
    const [event] = await t.rows<{ id: number }>(sql`insert into events (type, payload)
      values ('episode.published', '{}') returning id`);
    const job: AlertsJob = {
      eventId: event!.id,
      storyId,
      episodeId,
      partNumber: 1,
      firstEpisode: true,
    };
    let calls = 0;
    const flaky = alertsService({
      db: t.database.db,
      queue: t.queue,
      sms: {
        send: async (input) => {
          if (++calls > 2) throw new CarrierError('The carrier is down.');
          await t.carrier.sms.send(input);
        },
      },
      publicUrl: 'http://kathamala.test',
    });
    await expect(flaky.fanOut(job)).rejects.toThrow(CarrierError);
    const status = async () =>
      (
        await t.rows<{ status: string; n: number }>(sql`
          select status, count(*)::int as n from alert_deliveries where event_id = ${job.eventId}
          group by status order by status`)
      ).map((r) => `${r.status} ${r.n}`);
    expect(await status()).toEqual(['pending 4', 'sent 2']);
    expect(await alerts.fanOut(job)).toEqual({ planned: 0, sent: 4, more: false });
    expect(await status()).toEqual(['sent 6']);
    for (const mobile of fanMobiles) {
      expect(alertsTo(mobile)).toHaveLength(1);
      expect(alertsTo(mobile)[0]!.text).toMatch(/^New story on Kathamala: /);
    }
  });
});

describe('STOP', () => {
  it('a reader who texts STOP gets a confirmation and no more alerts', async () => {
    const author = await t.newAuthor();
    const storyId = await t.createStory(author.token);
    await t.publishEpisode(author.token, storyId);
    const stopper = await t.signup();
    const stayer = await t.signup();
    const stopMobile = await subscribe(stopper);
    const stayMobile = await subscribe(stayer);
    await alertOn(stopper, storyId);
    await alertOn(stayer, storyId);

    // Through the signed webhook, as the carrier forwards a phone's SMS to the short code.
    expect(sim().phoneSends(stopMobile, ' stop ', '77100')).toMatch(/Forwarded/);
    await sim().idle();
    expect(await t.rows(sql`select 1 from sms_opt_outs where mobile = ${stopMobile}`)).toHaveLength(
      1,
    );
    expect(
      await t.rows(sql`select 1 from story_alerts where user_id = ${userOf(stopper)}`),
    ).toHaveLength(0);
    await waitFor(
      () => smsTo(stopMobile).some((m) => m.ref?.startsWith('stop:')),
      'the STOP confirmation',
    );
    expect(smsTo(stopMobile).find((m) => m.ref?.startsWith('stop:'))!.text).toMatch(
      /alerts are off/,
    );
    const details = await t.app.inject({
      method: 'GET',
      url: apiPaths.preview(storyId),
      headers: bearer(stopper),
    });
    expect(details.json().object.alertEnabled).toBe(false);

    const job = await publish(author.token, storyId);
    await settled(job.eventId);
    expect(alertsTo(stopMobile, storyId, 2)).toHaveLength(0);
    expect(alertsTo(stayMobile, storyId, 2)).toHaveLength(1);

    // A STOP that arrives while alerts are still pending skips them.
    const job3 = await publish(author.token, storyId);
    await settled(job3.eventId);
    expect(alertsTo(stayMobile, storyId, 3)).toHaveLength(1);
    await t.rows(
      sql`update alert_deliveries set status = 'pending' where event_id = ${job3.eventId}`,
    );
    sim().phoneSends(stayMobile, 'STOP ALERTS', '77100');
    await sim().idle();
    const [row] = await t.rows<{ status: string }>(
      sql`select status from alert_deliveries where event_id = ${job3.eventId}`,
    );
    expect(row!.status).toBe('skipped');

    // Other texts are not STOP.
    const other = await t.signup();
    const otherMobile = await subscribe(other);
    await alertOn(other, storyId);
    sim().phoneSends(otherMobile, 'HELLO', '77100');
    await sim().idle();
    expect(
      await t.rows(sql`select 1 from sms_opt_outs where mobile = ${otherMobile}`),
    ).toHaveLength(0);
  });
});
