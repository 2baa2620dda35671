import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PRODUCT_APP_ID, apiPaths, type AudioBook } from '@kathamala/domain';
import { bearer, createTestApp, userOf, type TestApp } from '../../test/helpers.ts';
import type { CarrierSimulator } from '../../adapters/simulator/simulator.ts';
import { capabilities } from './capability.ts';
import { findFfmpeg } from './ffmpeg.ts';
import { audioService, renditionKey } from './service.ts';

/*
 * Audio episodes (issue 29) against the real server: uploads judged by real ffmpeg, the job
 * making both renditions, streaming over real HTTP with byte ranges, members-only prefixes,
 * listening progress. Fixtures are made here with espeak-ng and ffmpeg.
 */

let t: TestApp;
let sim: CarrierSimulator;
let base = '';
const dir = mkdtempSync(path.join(os.tmpdir(), 'audio-test-'));
const file = (name: string) => path.join(dir, name);

let author: { token: string; authorId: number; userId: number };
let otherAuthor: string;
let reader: string;
let member: string;
let lapsed: string;
let storyId = 0;
/** A members-only story of the same author: all its tracks are members-only. */
let lockedStoryId = 0;
let trackId = 0;
let prefix = '';
let lockedTrackId = 0;

const over = async (url: string, init: RequestInit = {}) => fetch(`${base}${url}`, init);
/** An answer's JSON: `{code, object}` or `{code, message}`. */
const json = (res: Response) =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  res.json() as Promise<{ code: number; message: string; object: any }>;

/** A multipart upload of `name`'s bytes in the field `audio`, with the other fields given. */
const upload = (
  story: number,
  token: string | null,
  name: string,
  fields: Record<string, string> = {},
) => {
  const form = new FormData();
  form.set('title', fields.title ?? 'Episode one, narrated');
  for (const [k, v] of Object.entries(fields)) if (k !== 'title') form.set(k, v);
  form.set('audio', new Blob([readFileSync(file(name))]), name);
  return over(`/api/v1/author/audio/upload/${story}`, {
    method: 'POST',
    body: form,
    headers: token ? bearer(token) : {},
  });
};

const tracksOf = async (story: number, token: string) => {
  const res = await over(`/api/v1/author/audio/${story}/webapp`, { headers: bearer(token) });
  expect(res.status).toBe(200);
  return (await json(res)).object.tracks as {
    trackId: number;
    status: string;
    reason?: string;
    sizes: unknown;
    durationSeconds: number | null;
    position: number;
    title: string;
    partNumber: number | null;
    membersOnly: boolean;
  }[];
};

/** Waits for the job to settle the track (the queue polls; ffmpeg takes a few seconds). */
const settled = async (story: number, id: number) => {
  for (let i = 0; i < 240; i++) {
    const track = (await tracksOf(story, author.token)).find((x) => x.trackId === id);
    if (track && track.status !== 'processing') return track;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the track never left processing');
};

const booksFor = async (story: number, token: string | null): Promise<AudioBook[]> => {
  const res = await over(apiPaths.preview(story), { headers: token ? bearer(token) : {} });
  expect(res.status).toBe(200);
  return (await json(res)).object.audioBooks;
};

let numbers = 0;
/** Joins the product app through the code flow; answers the number. */
const join = async (token: string) => {
  const mobile = `9477${String(3_000_000 + ++numbers).slice(-7)}`;
  const asked = await t.app.inject({
    method: 'POST',
    url: apiPaths.memberSubscribe(),
    headers: bearer(token),
    payload: { mobile: `0${mobile.slice(2)}`, appId: PRODUCT_APP_ID },
  });
  expect(asked.statusCode, asked.body).toBe(200);
  const verified = await t.app.inject({
    method: 'POST',
    url: apiPaths.memberVerify(),
    headers: bearer(token),
    payload: {
      mfaCode: sim.lastCode(mobile),
      appId: PRODUCT_APP_ID,
      refId: asked.json().object.refId,
    },
  });
  expect(verified.statusCode, verified.body).toBe(200);
  await sim.idle();
  return mobile;
};

const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args]);

beforeAll(async () => {
  // Fixtures: eight seconds of speech as MP3, the same cut in half, silence, and text.
  execFileSync('espeak-ng', [
    '-w',
    file('speech.wav'),
    'Once upon a time, near Kandy, there lived a girl who listened to stories on the bus every morning.',
  ]);
  ffmpeg('-i', file('speech.wav'), '-c:a', 'libmp3lame', '-b:a', '64k', file('speech.mp3'));
  const mp3 = readFileSync(file('speech.mp3'));
  writeFileSync(file('cut.mp3'), mp3.subarray(0, Math.floor(mp3.length / 2)));
  ffmpeg('-f', 'lavfi', '-i', 'anullsrc=r=22050:cl=mono', '-t', '4', file('silence.wav'));
  writeFileSync(
    file('notes.mp3'),
    'These are my notes for the episode, not a recording.\n'.repeat(50),
  );

  t = await createTestApp({ DEMO_SEED: '0', JOB_POLL_SECONDS: '1' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  base = `http://127.0.0.1:${address.port}`;
  sim = t.carrier.simulator!;

  author = await t.newAuthor('Narrator');
  otherAuthor = (await t.newAuthor('Other')).token;
  reader = await t.signup('Listener');
  member = await t.signup('Member');
  await join(member);
  lapsed = await t.signup('Lapsed');
  sim.charge(PRODUCT_APP_ID, await join(lapsed), false);
  await sim.idle();
  storyId = await t.createStory(author.token);
  await t.publishEpisode(author.token, storyId, 'Part one');
  await t.publishEpisode(author.token, storyId, 'Part two');
  lockedStoryId = await t.createStory(author.token, { membersOnly: true });
  await t.publishEpisode(author.token, lockedStoryId, 'Locked part one');
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('uploading a track', () => {
  it('refuses a visitor (401), a reader and another author (403)', async () => {
    expect((await upload(storyId, null, 'speech.mp3')).status).toBe(401);
    expect((await upload(storyId, reader, 'speech.mp3')).status).toBe(403);
    expect((await upload(storyId, otherAuthor, 'speech.mp3')).status).toBe(403);
    const list = await over(`/api/v1/author/audio/${storyId}/webapp`, {
      headers: bearer(otherAuthor),
    });
    expect(list.status).toBe(403);
    expect((await over(`/api/v1/author/audio/${storyId}/webapp`)).status).toBe(401);
  });

  it.each([
    ['notes.mp3', 'a text file named .mp3', /not audio we can read/],
    ['cut.mp3', 'a file cut off halfway', /damaged or cut off/],
    ['silence.wav', 'silence only', /silent/],
  ])('refuses %s (%s) with a sentence, and keeps nothing', async (name, _what, sentence) => {
    const res = await upload(storyId, author.token, name);
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.message).toMatch(sentence);
    expect(await tracksOf(storyId, author.token)).toEqual([]);
  });

  it('answers processing, and the job makes both renditions with durations and sizes', async () => {
    const res = await upload(storyId, author.token, 'speech.mp3', { partNumber: '1' });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.object.status).toBe('processing');
    trackId = body.object.trackId;
    const track = await settled(storyId, trackId);
    expect(track).toMatchObject({
      status: 'ready',
      partNumber: 1,
      membersOnly: false,
      position: 1,
    });
    expect(track.durationSeconds).toBeGreaterThan(4);
    const [book] = await booksFor(storyId, null);
    expect(book).toMatchObject({ trackId, partNumber: 1, membersOnly: false, positionSeconds: 0 });
    prefix = book!.prefix!;
    expect(prefix).toMatch(/^[0-9a-f]{24}$/);
    // The renditions as stored: AAC in an MP4 container with its index first, Opus in WebM.
    const standard = Buffer.from(
      await (await over(`/api/v1/audio/stream/${prefix}`)).arrayBuffer(),
    );
    const saver = Buffer.from(
      await (await over(`/api/v1/audio/stream/${prefix}?quality=saver`)).arrayBuffer(),
    );
    expect(standard.length).toBe(book!.sizes.standard);
    expect(saver.length).toBe(book!.sizes.saver);
    writeFileSync(file('got.m4a'), standard);
    writeFileSync(file('got.webm'), saver);
    const probe = (f: string) =>
      JSON.parse(
        execFileSync('ffprobe', [
          '-v',
          'error',
          '-print_format',
          'json',
          '-show_streams',
          f,
        ]).toString(),
      ).streams[0];
    expect(probe(file('got.m4a'))).toMatchObject({ codec_name: 'aac', channels: 1, profile: 'LC' });
    expect(probe(file('got.webm'))).toMatchObject({ codec_name: 'opus', channels: 1 });
    // +faststart: the moov box comes before the media data.
    expect(standard.indexOf('moov')).toBeLessThan(standard.indexOf('mdat'));
  }, 90_000);
});

describe('streaming per RFC 9110', () => {
  const get = (headers: Record<string, string> = {}, quality = 'standard', method = 'GET') =>
    over(`/api/v1/audio/stream/${prefix}?quality=${quality}`, { headers, method });
  let size = 0;
  let whole: Buffer;
  beforeAll(async () => {
    const res = await get();
    whole = Buffer.from(await res.arrayBuffer());
    size = whole.length;
  });

  it('sends the whole file with Accept-Ranges, ETag, Last-Modified and a year of caching', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toMatch(/^"/);
    expect(res.headers.get('last-modified')).toMatch(/GMT$/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toBe('audio/mp4');
    expect(Number(res.headers.get('content-length'))).toBe(size);
  });

  it('bytes=0- answers 206 with the whole length', async () => {
    const res = await get({ range: 'bytes=0-' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 0-${size - 1}/${size}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(whole)).toBe(true);
  });

  it('bytes=-500 answers the last 500 bytes', async () => {
    const res = await get({ range: 'bytes=-500' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes ${size - 500}-${size - 1}/${size}`);
    expect(Buffer.from(await res.arrayBuffer()).equals(whole.subarray(size - 500))).toBe(true);
  });

  it('bytes=100-199 answers exactly those bytes', async () => {
    const res = await get({ range: 'bytes=100-199' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await res.arrayBuffer()).equals(whole.subarray(100, 200))).toBe(true);
  });

  it('bytes=100-99 (last before first: no satisfiable range) answers 416 with bytes */N', async () => {
    const res = await get({ range: 'bytes=100-99' });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe(`bytes */${size}`);
  });

  it('a range starting beyond the end answers 416 with Content-Range: bytes */N and no audio', async () => {
    const res = await get({ range: `bytes=${size + 10}-` });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe(`bytes */${size}`);
    expect((await json(res)).message).toMatch(/outside this recording/);
  });

  it('a range running past the end is cut at the end', async () => {
    const res = await get({ range: `bytes=${size - 10}-${size + 1000}` });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
  });

  it('two ranges answer the whole file (200)', async () => {
    const res = await get({ range: 'bytes=0-99,200-299' });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).length).toBe(size);
  });

  it('If-Range with the current ETag keeps the range; a stale one gets the whole 200', async () => {
    const etag = (await get()).headers.get('etag')!;
    const fresh = await get({ range: 'bytes=0-9', 'if-range': etag });
    expect(fresh.status).toBe(206);
    const stale = await get({ range: 'bytes=0-9', 'if-range': '"an-older-version"' });
    expect(stale.status).toBe(200);
    expect(Buffer.from(await stale.arrayBuffer()).length).toBe(size);
  });

  it('HEAD answers the headers and length without a body', async () => {
    const res = await get({}, 'saver', 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/webm');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(1000);
    expect((await res.arrayBuffer()).byteLength).toBe(0);
    const ranged = await get({ range: 'bytes=0-9' }, 'saver', 'HEAD');
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-length')).toBe('10');
  });

  it('does not count range requests against the per-address API limit', async () => {
    const limited = await createTestApp({ DEMO_SEED: '0', RATE_LIMIT_MAX: '5' });
    try {
      // The same prefix on another server: a track of its own, stored in its own memory.
      const [r] = await limited.rows<{ ok: number }>(sql`select 1 as ok`);
      expect(r!.ok).toBe(1);
      for (let i = 0; i < 10; i++) {
        const res = await limited.app.inject({ url: `/api/v1/audio/stream/${prefix}` });
        expect(res.statusCode).toBe(404);
      }
      // The API's own budget of 5 is untouched by the 10 stream requests.
      expect((await limited.app.inject({ url: '/api/v1/story/listV2/?page=1' })).statusCode).toBe(
        200,
      );
    } finally {
      await limited.close();
    }
  });
});

describe('members-only tracks', () => {
  beforeAll(async () => {
    const res = await upload(lockedStoryId, author.token, 'speech.mp3', {
      title: 'Locked narration',
    });
    expect(res.status).toBe(200);
    lockedTrackId = (await json(res)).object.trackId;
    await settled(lockedStoryId, lockedTrackId);
  }, 90_000);

  it.each([
    ['a visitor', () => null],
    ['a reader', () => reader],
    ['a lapsed member', () => lapsed],
  ])('are listed to %s with prefix null', async (_who, token) => {
    const [book] = await booksFor(lockedStoryId, token());
    expect(book).toMatchObject({ trackId: lockedTrackId, membersOnly: true, prefix: null });
  });

  it('open to a member through a signed prefix that carries no token', async () => {
    const [book] = await booksFor(lockedStoryId, member);
    expect(book!.prefix).toMatch(/^[0-9a-f]{24}\.\d+\.[0-9a-z]+\.[\w-]+$/);
    expect(book!.prefix).not.toContain(member.slice(0, 20));
    const res = await over(`/api/v1/audio/stream/${book!.prefix}`, {
      headers: { range: 'bytes=0-99' },
    });
    expect(res.status).toBe(206);
    expect(res.headers.get('cache-control')).toMatch(/^private/);
    expect((await res.arrayBuffer()).byteLength).toBe(100);
  });

  it('refuses the bare prefix, a tampered one and an expired one, with no bytes', async () => {
    const [book] = await booksFor(lockedStoryId, member);
    const signed = book!.prefix!;
    const bare = signed.split('.')[0]!;
    const [p, u, e, mac] = signed.split('.') as [string, string, string, string];
    const tampered = [
      `${p}.${Number(u) + 1}.${e}.${mac}`,
      `${p}.${u}.${(parseInt(e, 36) + 3600).toString(36)}.${mac}`,
      `${p}.${u}.${e}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
    ];
    // A capability made three days ago with the server's own key: expired.
    const [secret] = await t.rows<{ value: string }>(
      sql`select value from deployment_secrets where name = 'audio-capability-key'`,
    );
    const expired = capabilities(secret!.value).sign(
      p,
      userOf(member),
      Date.now() - 3 * 86_400_000,
    );
    expect(capabilities(secret!.value).verify(signed)).not.toBeNull();
    for (const token of [bare, ...tampered, expired]) {
      const res = await over(`/api/v1/audio/stream/${token}`);
      expect(res.status, token).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/json/);
      expect((await json(res)).message).toMatch(/members|expired/);
    }
  });
});

describe('listening progress', () => {
  it('is kept for the listener and shown on another device; finishing part 1 moves Continue reading to part 2', async () => {
    const save = (positionSeconds: number) =>
      over('/api/v1/audio/progress/', {
        method: 'POST',
        headers: { ...bearer(reader), 'content-type': 'application/json' },
        body: JSON.stringify({ trackId, positionSeconds }),
      });
    expect((await over('/api/v1/audio/progress/', { method: 'POST', body: '{}' })).status).toBe(
      401,
    );
    expect((await save(2.5)).status).toBe(200);
    expect((await booksFor(storyId, reader))[0]!.positionSeconds).toBe(2.5);
    expect((await booksFor(storyId, member))[0]!.positionSeconds).toBe(0);
    const done = await save(1000);
    expect((await json(done)).object).toMatchObject({ continuePart: 2 });
    const [row] = await t.rows<{ part: number }>(
      sql`select part_number as part from reading_progress where user_id = ${userOf(reader)} and story_id = ${storyId}`,
    );
    expect(row!.part).toBe(2);
  });
});

describe('the episode answer', () => {
  it("carries the reader's audioBooks, from memory, and a saved position as soon as it is saved", async () => {
    const answer = async () => {
      const res = await over(`/api/v1/story/${storyId}/part/number/1`, { headers: bearer(member) });
      expect(res.status).toBe(200);
      return (await json(res)).object as { audioBooks: AudioBook[]; bookmarked: boolean };
    };
    const part = async () => (await answer()).audioBooks;
    await part();
    // The second read is answered from memory (the kept path); the list is the same.
    const [kept] = await part();
    expect(kept).toMatchObject({ trackId, prefix, partNumber: 1 });
    // A bookmark no notice announces: the answer shows it only once the reading state is read.
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(
        sql`insert into bookmarks (user_id, story_id) values (${userOf(member)}, ${storyId})
            on conflict do nothing`,
      );
    });
    const saved = await over('/api/v1/audio/progress/', {
      method: 'POST',
      headers: { ...bearer(member), 'content-type': 'application/json' },
      body: JSON.stringify({ trackId, positionSeconds: 1.5 }),
    });
    expect(saved.status).toBe(200);
    const after = await answer();
    expect(after.audioBooks[0]!.positionSeconds).toBe(1.5);
    // The position's notice dropped the listener's positions, not their reading state.
    expect(after.bookmarked).toBe(false);
    await t.database.db.execute(
      sql`delete from bookmarks where user_id = ${userOf(member)} and story_id = ${storyId}`,
    );
  });
});

describe('track management', () => {
  it('renames, reorders, marks members-only and deletes, for the author only', async () => {
    const second = await upload(storyId, author.token, 'speech.wav', { title: 'Second' });
    const id = (await json(second)).object.trackId as number;
    await settled(storyId, id);
    const change = (token: string, track: object) =>
      over('/api/v1/author/audio/track/webapp', {
        method: 'POST',
        headers: { ...bearer(token), 'content-type': 'application/json' },
        body: JSON.stringify({ track }),
      });
    expect((await change(otherAuthor, { trackId: id, title: 'Mine now' })).status).toBe(403);
    const res = await change(author.token, {
      trackId: id,
      position: 1,
      membersOnly: true,
      title: 'Prologue',
    });
    expect(res.status).toBe(200);
    const tracks = (await json(res)).object.tracks;
    expect(tracks.map((x: { trackId: number }) => x.trackId)).toEqual([id, trackId]);
    expect(tracks[0]).toMatchObject({ title: 'Prologue', membersOnly: true, position: 1 });
    const books = await booksFor(storyId, reader);
    expect(books.map((b) => [b.trackId, b.prefix === null])).toEqual([
      [id, true],
      [trackId, false],
    ]);
    const del = (token: string) =>
      over(`/api/v1/author/audio/track/${id}/webapp`, { method: 'DELETE', headers: bearer(token) });
    expect((await del(reader)).status).toBe(403);
    expect((await del(author.token)).status).toBe(200);
    expect((await booksFor(storyId, reader)).map((b) => b.trackId)).toEqual([trackId]);
  }, 90_000);
});

describe('a crash mid-processing', () => {
  it('leaves nothing live; the retry starts over under a new prefix and flips the track whole', async () => {
    // A track waiting for its job, as an upload leaves it (no job queued: this test is the worker).
    const source = `audio/uploads/crash-${Date.now()}`;
    await t.storage.putFile(source, file('speech.mp3'), 'audio/mpeg');
    const [row] = await t.rows<{ id: number }>(sql`insert into audio_tracks
      (story_id, title, position, source_key) values (${storyId}, 'Crashing', 9, ${source}) returning id`);
    const worker = audioService({
      db: t.database.db,
      queue: t.queue,
      storage: t.storage,
      ffmpeg: findFfmpeg(),
      capabilities: capabilities('test'),
    });
    let written = '';
    await expect(
      worker.process(row!.id, {
        afterFirstRendition: async () => {
          const [r] = await t.rows<{ status: string; prefix: string | null }>(
            sql`select status, prefix from audio_tracks where id = ${row!.id}`,
          );
          expect(r).toEqual({ status: 'processing', prefix: null });
          written = 'standard';
          throw new Error('the machine lost power');
        },
      }),
    ).rejects.toThrow('lost power');
    expect(written).toBe('standard');
    const [after] = await t.rows<{ status: string; prefix: string | null }>(
      sql`select status, prefix from audio_tracks where id = ${row!.id}`,
    );
    expect(after).toEqual({ status: 'processing', prefix: null });
    expect((await booksFor(storyId, null)).some((b) => b.trackId === row!.id)).toBe(false);
    // The retry.
    await worker.process(row!.id);
    const [done] = await t.rows<{ status: string; prefix: string }>(
      sql`select status, prefix from audio_tracks where id = ${row!.id}`,
    );
    expect(done!.status).toBe('ready');
    expect(await t.storage.has(renditionKey(done!.prefix, 'standard'))).toBe(true);
    expect(await t.storage.has(renditionKey(done!.prefix, 'saver'))).toBe(true);
    expect(await t.storage.has(source)).toBe(false);
    expect((await booksFor(storyId, null)).some((b) => b.trackId === row!.id)).toBe(true);
    // Run again (a retry after the flip committed): nothing changes.
    await worker.process(row!.id);
    const [again] = await t.rows<{ prefix: string }>(
      sql`select prefix from audio_tracks where id = ${row!.id}`,
    );
    expect(again!.prefix).toBe(done!.prefix);
  }, 90_000);
});

describe('a server without ffmpeg', () => {
  it('refuses uploads with 503 and a sentence (demo.test.ts streams without ffmpeg)', async () => {
    const was = process.env.FFMPEG_PATH;
    process.env.FFMPEG_PATH = '/nonexistent/ffmpeg';
    const bare = await createTestApp({ DEMO_SEED: '0' });
    if (was === undefined) delete process.env.FFMPEG_PATH;
    else process.env.FFMPEG_PATH = was;
    try {
      const a = await bare.newAuthor('No ffmpeg');
      const story = await bare.createStory(a.token);
      const form = new FormData();
      form.set('title', 'x');
      form.set('audio', new Blob([readFileSync(file('speech.mp3'))]), 'speech.mp3');
      const res = await bare.app.inject({
        method: 'POST',
        url: `/api/v1/author/audio/upload/${story}`,
        headers: bearer(a.token),
        body: form,
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toMatch(/ffmpeg/);
    } finally {
      await bare.close();
    }
  });
});
