import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHORING, ResultCode } from '@kathamala/domain';
import { memoryStorage } from '../../adapters/storage/local.ts';
import { AppError } from '../../errors.ts';
import { clearOfRateWindowEnd, bearer, createTestApp, type TestApp } from '../../test/helpers.ts';
import { coversService } from './service.ts';
import { coverKey, parseCoverFile } from './files.ts';

// ---- test images, made small and fast ----

/** A noisy image (so it does not compress to nothing), in the given format and size. */
const image = (format: 'png' | 'jpeg' | 'webp', width: number, height: number) => {
  const noise = {
    create: {
      width,
      height,
      channels: 3 as const,
      background: '#000',
      noise: { type: 'gaussian' as const, mean: 128, sigma: 20 },
    },
  };
  return sharp({ create: { width, height, channels: 3, background: '#3a6ea5' } })
    .composite([{ input: noise, blend: 'overlay' }])
    .toFormat(format)
    .toBuffer();
};

const chunk = (type: string, data: Buffer) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([len, body, crc]);
};

/** A valid PNG header claiming width x height, with a token of pixel data: cheap to make. */
const pngClaiming = (width: number, height: number) => {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(Buffer.alloc(4096))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

const SVG = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="600" height="900"><rect width="600" height="900" fill="red"/></svg>',
);

/** A status and message an AppError carries, for comparing refusals. */
const refusal = async (work: Promise<unknown>) => {
  const error = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  const e = error as AppError;
  expect(e.message.length).toBeGreaterThan(20);
  return { status: e.status, code: e.code, message: e.message };
};

describe('covers service', () => {
  const storage = memoryStorage();
  const covers = coversService(storage);
  let images: { png: Buffer; jpeg: Buffer; webp: Buffer; truncated: Buffer };

  beforeAll(async () => {
    const png = await image('png', 800, 1200);
    images = {
      png,
      jpeg: await image('jpeg', 800, 1200),
      webp: await image('webp', 800, 1200),
      truncated: png.subarray(0, Math.floor(png.length * 0.6)),
    };
  });

  it('gives a story a generated cover with its list sizes', async () => {
    await covers.generate({ storyId: 41, title: 'The Lantern Keeper', authorName: 'Ashan' });
    const main = await storage.get(coverKey(41));
    expect(main?.contentType).toBe('image/png');
    const meta = await sharp(main!.body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 400, 600]);
    for (const width of [160, 320] as const) {
      const size = await storage.get(coverKey(41, width));
      expect(size?.contentType).toBe('image/webp');
      const m = await sharp(size!.body).metadata();
      expect([m.format, m.width, m.height]).toEqual(['webp', width, width * 1.5]);
    }
  });

  it('accepts PNG, JPEG and WebP and stores a 600 x 900 PNG without metadata', async () => {
    for (const [i, bytes] of [images.png, images.jpeg, images.webp].entries()) {
      const stored = await covers.upload(50 + i, bytes);
      expect(stored).toMatchObject({ width: 600, height: 900 });
      const main = (await storage.get(coverKey(50 + i)))!.body;
      expect(stored.bytes).toBe(main.length);
      const meta = await sharp(main).metadata();
      expect(meta).toMatchObject({ format: 'png', width: 600, height: 900 });
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(await storage.has(coverKey(50 + i, 160))).toBe(true);
      expect(await storage.has(coverKey(50 + i, 320))).toBe(true);
    }
  });

  it('turns a photo by its EXIF orientation, then strips EXIF and the colour profile', async () => {
    // Stored landscape, shown portrait: orientation 6 means "turn 90° clockwise".
    const photo = await sharp(await image('jpeg', 900, 600))
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({ IFD0: { Copyright: 'someone' } })
      .withIccProfile('p3')
      .toBuffer();
    const before = await sharp(photo).metadata();
    expect([before.orientation, Boolean(before.exif), Boolean(before.icc)]).toEqual([
      6,
      true,
      true,
    ]);
    expect(await covers.upload(60, photo)).toMatchObject({ width: 600, height: 900 });
    const after = await sharp((await storage.get(coverKey(60)))!.body).metadata();
    expect(after.orientation).toBeUndefined();
    expect(after.exif).toBeUndefined();
    expect(after.icc).toBeUndefined();
  });

  it('cuts other shapes to a 2:3 portrait and never enlarges', async () => {
    expect(await covers.upload(61, await image('jpeg', 1600, 900))).toMatchObject({
      width: 600,
      height: 900,
    });
    expect(await covers.upload(62, await image('png', 300, 450))).toMatchObject({
      width: 300,
      height: 450,
    });
  });

  it('refuses what is not a whole JPEG, PNG or WebP within the limits, keeping the old cover', async () => {
    await covers.upload(70, images.png);
    const old = (await storage.get(coverKey(70)))!.body;
    const oldSmall = (await storage.get(coverKey(70, 320)))!.body;

    const svg = await refusal(covers.upload(70, SVG));
    expect(svg).toMatchObject({ status: 415, code: ResultCode.invalidInput });
    expect(svg.message).toMatch(/JPEG, PNG or WebP/);

    const text = await refusal(covers.upload(70, Buffer.from('this is not a picture\n')));
    expect(text.status).toBe(415);

    const huge = await refusal(covers.upload(70, pngClaiming(14000, 14000)));
    expect(huge).toMatchObject({ status: 413, code: ResultCode.payloadTooLarge });
    expect(huge.message).toContain('14000 × 14000');
    expect(huge.message).toContain('40 megapixels');

    const big = Buffer.concat([images.png, Buffer.alloc(AUTHORING.coverBytes)]);
    const heavy = await refusal(covers.upload(70, big));
    expect(heavy).toMatchObject({ status: 413, code: ResultCode.payloadTooLarge });
    expect(heavy.message).toContain('4 MB');

    const cut = await refusal(covers.upload(70, images.truncated));
    expect(cut).toMatchObject({ status: 400, code: ResultCode.invalidInput });
    expect(cut.message).toMatch(/damaged or incomplete/);

    const cutJpeg = await refusal(covers.upload(70, images.jpeg.subarray(0, 4000)));
    expect(cutJpeg.status).toBe(400);

    const tiny = await refusal(covers.upload(70, await image('png', 100, 100)));
    expect(tiny.status).toBe(400);
    expect(tiny.message).toContain('160 × 240');

    expect((await refusal(covers.upload(70, Buffer.alloc(0)))).status).toBe(400);

    expect((await storage.get(coverKey(70)))!.body.equals(old)).toBe(true);
    expect((await storage.get(coverKey(70, 320)))!.body.equals(oldSmall)).toBe(true);
  });

  it('draws the list sizes of a cover stored before sizes existed, on first request', async () => {
    const legacy = memoryStorage();
    await legacy.put(coverKey(9), images.png, 'image/png');
    const served = await coversService(legacy).read('story_cover_9_w160.webp');
    expect(served?.contentType).toBe('image/webp');
    expect((await sharp(served!.body).metadata()).width).toBe(160);
    expect(await legacy.has(coverKey(9, 320))).toBe(true);
    expect(await coversService(legacy).read('story_cover_10_w160.webp')).toBeNull();
  });

  it('knows which names are covers', () => {
    expect(parseCoverFile('story_cover_12.png')).toEqual({ storyId: 12 });
    expect(parseCoverFile('story_cover_12_w320.webp')).toEqual({ storyId: 12, width: 320 });
    for (const bad of ['story_cover_0.png', 'story_cover_1_w200.webp', 'story_cover_1.webp'])
      expect(parseCoverFile(bad)).toBeNull();
  });
});

// ---- the upload call, on the real app ----

/** A multipart body as a browser would send it: the file under `field`, named `filename`. */
const form = async (bytes: Buffer, filename: string, type: string, field = 'image') => {
  const data = new FormData();
  data.append(field, new Blob([bytes], { type }), filename);
  const res = new Response(data);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type')! },
  };
};

describe('POST /api/v1/upload-story-cover/upload/:id', () => {
  let t: TestApp;
  let ashan: string;
  let storyId: number;
  let png: Buffer;
  const url = (id: number) => `/api/v1/upload-story-cover/upload/${id}`;

  beforeAll(async () => {
    t = await createTestApp();
    ashan = await t.login('ashan@demo.kathamala.lk', 'kathamala-demo');
    const list = await t.app.inject({
      url: '/api/v1/author/story/list/webapp',
      headers: bearer(ashan),
    });
    expect(list.statusCode).toBe(200);
    storyId = list.json().object.stories[0].storyId;
    png = await image('png', 800, 1200);
  });
  afterAll(() => t.close());

  const upload = async (
    token: string | null,
    id: number,
    bytes: Buffer,
    filename = 'cover.png',
    type = 'image/png',
    field = 'image',
  ) => {
    const body = await form(bytes, filename, type, field);
    return t.app.inject({
      method: 'POST',
      url: url(id),
      payload: body.payload,
      headers: { ...body.headers, ...(token ? bearer(token) : {}) },
    });
  };
  const served = async (file = `story_cover_${storyId}.png`) => t.app.inject(`/images/${file}`);

  it('takes a PNG, JPEG or WebP from the author and serves it re-encoded', async () => {
    for (const [format, type] of [
      ['png', 'image/png'],
      ['jpeg', 'image/jpeg'],
      ['webp', 'image/webp'],
    ] as const) {
      const bytes = format === 'png' ? png : await image(format, 800, 1200);
      const res = await upload(ashan, storyId, bytes, `cover.${format}`, type);
      expect(res.statusCode, res.body).toBe(200);
      const object = res.json().object;
      expect(object).toMatchObject({ storyId, width: 600, height: 900 });
      expect(object.cover).toMatch(new RegExp(`/story_cover_${storyId}\\.png\\?v=[0-9a-f]{12}$`));

      const cover = await served();
      expect(cover.statusCode).toBe(200);
      expect(cover.headers['content-type']).toBe('image/png');
      expect(cover.headers['x-content-type-options']).toBe('nosniff');
      expect(object.bytes).toBe(cover.rawPayload.length);
      const meta = await sharp(cover.rawPayload).metadata();
      expect(meta).toMatchObject({ format: 'png', width: 600, height: 900 });
      expect(meta.exif).toBeUndefined();
      expect(meta.icc).toBeUndefined();
    }
  });

  it('serves the list sizes as WebP, cached briefly and revalidated by ETag', async () => {
    for (const width of [160, 320]) {
      const res = await served(`story_cover_${storyId}_w${width}.webp`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect((await sharp(res.rawPayload).metadata()).width).toBe(width);
    }
    const first = await served();
    expect(first.headers['cache-control']).toBe(
      'public, max-age=600, stale-while-revalidate=86400',
    );
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await t.app.inject({
      url: `/images/story_cover_${storyId}.png`,
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect((await served(`story_cover_${storyId}_w200.webp`)).statusCode).toBe(400);
  });

  it('refuses an SVG, text, a huge, heavy or cut-off image with a 4xx, and keeps the cover', async () => {
    expect((await upload(ashan, storyId, png)).statusCode).toBe(200);
    const before = (await served()).rawPayload;

    const cases: [string, Buffer, string, number][] = [
      ['an SVG named .png', SVG, 'cover.png', 415],
      ['a text file named .png', Buffer.from('hello, not an image\n'), 'cover.png', 415],
      ['a 14000 x 14000 PNG', pngClaiming(14000, 14000), 'big.png', 413],
      [
        'a 5 MB file',
        Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 - png.length)]),
        'heavy.png',
        413,
      ],
      ['a truncated PNG', png.subarray(0, Math.floor(png.length / 2)), 'cut.png', 400],
    ];
    for (const [what, bytes, filename, status] of cases) {
      const res = await upload(ashan, storyId, bytes, filename, 'image/png');
      expect(res.statusCode, what).toBe(status);
      const body = res.json();
      expect(body.code, what).toBe(
        status === 413 ? ResultCode.payloadTooLarge : ResultCode.invalidInput,
      );
      expect(body.message.length, what).toBeGreaterThan(20);
      expect((await served()).rawPayload.equals(before), what).toBe(true);
    }
  });

  it('draws a cover for a new story, and a retitle keeps an uploaded one', async () => {
    const publish = (story: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/author/publish/story/webapp',
        headers: bearer(ashan),
        payload: { story },
      });
    const created = await publish({
      title: 'A cover of its own',
      language: 'english',
      kind: 0,
      category: 'romance',
    });
    expect(created.statusCode, created.body).toBe(200);
    const id: number = created.json().object.storyId;
    const drawn = await served(`story_cover_${id}.png`);
    expect(drawn.statusCode).toBe(200);
    expect((await sharp(drawn.rawPayload).metadata()).width).toBe(400);
    expect((await served(`story_cover_${id}_w160.webp`)).statusCode).toBe(200);

    expect((await upload(ashan, id, png)).statusCode).toBe(200);
    const uploaded = (await served(`story_cover_${id}.png`)).rawPayload;
    expect((await publish({ storyId: id, title: 'A new title' })).statusCode).toBe(200);
    expect((await served(`story_cover_${id}.png`)).rawPayload.equals(uploaded)).toBe(true);
  });

  it('lets only the story author upload', async () => {
    const reader = await t.signup();
    const nilmini = await t.login('nilmini@demo.kathamala.lk', 'kathamala-demo');
    const before = (await served()).rawPayload;
    expect((await upload(reader, storyId, png)).statusCode).toBe(403);
    const other = await upload(nilmini, storyId, png);
    expect(other.statusCode).toBe(403);
    expect(other.json().code).toBe(ResultCode.forbidden);
    const visitor = await upload(null, storyId, png);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().code).toBe(ResultCode.unauthorized);
    const missing = await upload(ashan, 999_999, png);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBeTruthy();
    expect((await served()).rawPayload.equals(before)).toBe(true);
  });

  it('wants the file in the field image, sent as a form', async () => {
    const other = await upload(ashan, storyId, png, 'cover.png', 'image/png', 'photo');
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toContain("'image'");

    const empty = new Response(new FormData());
    const none = await t.app.inject({
      method: 'POST',
      url: url(storyId),
      payload: Buffer.from(await empty.arrayBuffer()),
      headers: { 'content-type': empty.headers.get('content-type')!, ...bearer(ashan) },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toContain("'image'");

    for (const [type, payload] of [
      ['application/json', '{"image":"x"}'],
      ['image/png', png],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: url(storyId),
        payload,
        headers: { 'content-type': type, ...bearer(ashan) },
      });
      expect(res.statusCode, type).toBe(415);
      expect(res.json().message, type).toContain('multipart/form-data');
    }

    const whole = await form(png, 'cover.png', 'image/png');
    const cut = await t.app.inject({
      method: 'POST',
      url: url(storyId),
      payload: whole.payload.subarray(0, 5000),
      headers: { ...whole.headers, ...bearer(ashan) },
    });
    expect(cut.statusCode).toBe(400);
    expect(cut.json().code).toBe(ResultCode.invalidInput);

    expect((await upload(ashan, 0, png)).statusCode).toBe(400);
  });
});

describe('upload rate', () => {
  it('answers 429 with a sentence past the uploads a minute allowed per address', async () => {
    // No demo seed: this app only needs one author and one story of theirs.
    const t = await createTestApp({ RATE_LIMIT_UPLOAD_MAX: '2', DEMO_SEED: '0' });
    try {
      const reader = await t.signup();
      const registered = await t.app.inject({
        method: 'POST',
        url: '/api/v1/author/register/',
        headers: bearer(reader),
        payload: { name: 'Rate Tester' },
      });
      const token = registered.json().object.accesstoken as string;
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/v1/author/publish/story/webapp',
        headers: bearer(token),
        payload: {
          story: { title: 'Covers', language: 'english', kind: 0, category: 'mystery' },
        },
      });
      const storyId = created.json().object.storyId as number;
      const body = await form(await image('png', 400, 600), 'cover.png', 'image/png');
      await clearOfRateWindowEnd();
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/v1/upload-story-cover/upload/${storyId}`,
          payload: body.payload,
          headers: { ...body.headers, ...bearer(token) },
        });
        codes.push(res.statusCode);
        if (res.statusCode === 429) expect(res.json().message).toMatch(/Too many requests/);
      }
      expect(codes).toEqual([200, 200, 429]);
    } finally {
      await t.close();
    }
  }, 90_000);
});
