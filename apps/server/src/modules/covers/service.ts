import { createHash } from 'node:crypto';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { AUTHORING, ResultCode } from '@kathamala/domain';
import type { ObjectStorage } from '../../adapters/storage/types.ts';
import { AppError, invalid } from '../../errors.ts';
import { renderCover } from './art.ts';
import { COVER_LIST_WIDTHS, coverKey, parseCoverFile, type CoverListWidth } from './files.ts';

/** An uploaded cover as stored: the main PNG's size and a version that changes with its bytes. */
export interface StoredCover {
  width: number;
  height: number;
  bytes: number;
  version: string;
}

/** Uploaded covers are cut to a 2:3 portrait, as every list and page shows them. */
const MAX_WIDTH = 600;
/** Below this the smallest list size would be blown up. */
const MIN_WIDTH = COVER_LIST_WIDTHS[0];
const heightOf = (width: number) => Math.round((width * 3) / 2);

// A 256-colour PNG (libimagequant, dithered) is about a third of a true-colour one and looks the
// same at cover size; lists take the WebP sizes anyway.
const PNG_OUT = { palette: true, quality: 90, compressionLevel: 9, effort: 7 } as const;
const WEBP_OUT = { quality: 80, effort: 4 } as const;

const MB = 1024 * 1024;
const tooLarge = (message: string) => new AppError(413, ResultCode.payloadTooLarge, message);
const unsupported = (noun: string) =>
  new AppError(
    415,
    ResultCode.invalidInput,
    `${noun} must be a JPEG, PNG or WebP image. This file is not one of those.`,
  );
const damaged = () =>
  invalid('This image file is damaged or incomplete. Save it again and upload the new file.');

/** The kind of image the first bytes say, before any decoder sees the file. */
function sniff(bytes: Buffer): 'jpeg' | 'png' | 'webp' | null {
  const at = (offset: number, text: string) =>
    bytes.subarray(offset, offset + text.length).toString('latin1') === text;
  if (bytes.length >= 8 && at(0, '\x89PNG\r\n\x1a\n')) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'jpeg';
  if (bytes.length >= 12 && at(0, 'RIFF') && at(8, 'WEBP')) return 'webp';
  return null;
}

// Writes of one story's files run one after another, so a list size drawn from an old cover
// never lands after a new upload. Keyed by store, so separate apps (tests) never wait on each other.
const writeQueues = new WeakMap<ObjectStorage, Map<number, Promise<unknown>>>();
function serialized<T>(storage: ObjectStorage, storyId: number, work: () => Promise<T>) {
  let queues = writeQueues.get(storage);
  if (!queues) writeQueues.set(storage, (queues = new Map()));
  const next = (queues.get(storyId) ?? Promise.resolve()).catch(() => {}).then(work);
  queues.set(storyId, next);
  void next.finally(() => {
    if (queues.get(storyId) === next) queues.delete(storyId);
  });
  return next;
}

/** The list sizes of a cover, drawn from its main PNG. */
const listSizes = (main: Buffer) =>
  Promise.all(
    COVER_LIST_WIDTHS.map(async (width) => ({
      width,
      body: await sharp(main)
        .resize(width, heightOf(width), { fit: 'cover' })
        .webp(WEBP_OUT)
        .toBuffer(),
    })),
  );

/** What an uploaded image may be: its bytes, its pixels, and what a refusal calls it. */
export interface UploadLimits {
  maxBytes: number;
  maxPixels: number;
  /** 'A cover', 'A picture': the start of a refusal's sentence. */
  noun: string;
}

/**
 * Checks an uploaded image by its bytes (JPEG, PNG or WebP by their signatures, whole, within
 * the limits) and returns its oriented size; every refusal is a 4xx with a sentence. Shared by
 * covers and the community's images.
 */
export async function inspectUpload(
  bytes: Buffer,
  limits: UploadLimits,
): Promise<{ width: number; height: number }> {
  const { noun } = limits;
  if (bytes.length === 0) throw invalid('The file is empty. Choose a JPEG, PNG or WebP image.');
  if (bytes.length > limits.maxBytes)
    throw tooLarge(
      `This image is ${(bytes.length / MB).toFixed(1)} MB; ${noun.toLowerCase()} can be at most ${limits.maxBytes / MB} MB. Save it smaller and try again.`,
    );
  // Only the three raster formats get past here, so SVG, XML or text never reach a decoder.
  const kind = sniff(bytes);
  if (!kind) throw unsupported(noun);
  let meta: Metadata;
  try {
    // Reads the header only; nothing is decoded yet.
    meta = await sharp(bytes).metadata();
  } catch {
    throw damaged();
  }
  if (meta.format !== kind) throw unsupported(noun);
  if (!meta.width || !meta.height) throw damaged();
  const pixels = meta.width * meta.height;
  if (pixels > limits.maxPixels)
    throw tooLarge(
      `This image is ${meta.width} × ${meta.height} pixels (${Math.round(pixels / 1e6)} megapixels); ${noun.toLowerCase()} can be at most ${limits.maxPixels / 1e6} megapixels. Make it smaller and try again.`,
    );
  const { width, height } = meta.autoOrient ?? meta;
  return { width, height };
}

/**
 * Decodes a checked upload, turned by its EXIF orientation, as a sharp pipeline that keeps no
 * metadata (EXIF, GPS, ICC, XMP) in what it writes. `shape` resizes and encodes it.
 */
export async function reencodeUpload(
  bytes: Buffer,
  maxPixels: number,
  shape: (image: Sharp) => Sharp,
): Promise<Buffer> {
  try {
    return await shape(
      sharp(bytes, {
        limitInputPixels: maxPixels,
        // Truncated or corrupt pixel data is refused; mere warnings (odd but whole files) pass.
        failOn: 'error',
      }).rotate(), // by its EXIF orientation, before the metadata goes
    ).toBuffer(); // sharp keeps no EXIF, ICC or XMP unless asked
  } catch {
    throw damaged();
  }
}

const COVER_LIMITS: UploadLimits = {
  maxBytes: AUTHORING.coverBytes,
  maxPixels: AUTHORING.coverMaxPixels,
  noun: 'A cover',
};

/** Checks an uploaded cover by its bytes and returns its oriented size; refusals are 4xx. */
async function inspect(bytes: Buffer): Promise<{ width: number; height: number }> {
  const { width, height } = await inspectUpload(bytes, COVER_LIMITS);
  if (Math.min(width, Math.floor((height * 2) / 3)) < MIN_WIDTH)
    throw invalid(
      `This image is ${width} × ${height} pixels; a cover needs at least ${MIN_WIDTH} × ${heightOf(MIN_WIDTH)} (it is cut to a 2:3 portrait).`,
    );
  return { width, height };
}

/** Story covers: drawn for new stories, uploaded by authors, stored with their list sizes. */
export function coversService(storage: ObjectStorage) {
  /** Writes the list sizes first and the main file last, one story at a time. */
  const write = (storyId: number, main: Buffer, sizes: { width: CoverListWidth; body: Buffer }[]) =>
    serialized(storage, storyId, async () => {
      for (const s of sizes) await storage.put(coverKey(storyId, s.width), s.body, 'image/webp');
      await storage.put(coverKey(storyId), main, 'image/png');
    });

  const save = async (storyId: number, png: Buffer): Promise<StoredCover> => {
    const sizes = await listSizes(png);
    await write(storyId, png, sizes);
    const meta = await sharp(png).metadata();
    return {
      width: meta.width,
      height: meta.height,
      bytes: png.length,
      version: createHash('sha256').update(png).digest('hex').slice(0, 12),
    };
  };

  return {
    /** Stores a cover PNG as the story's main file, with the WebP sizes lists use. */
    async store(storyId: number, png: Buffer): Promise<void> {
      await save(storyId, png);
    },

    /** Draws the cover a story shows until its author uploads one (the publishing CoverArt). */
    async generate(story: { storyId: number; title: string; authorName: string }): Promise<void> {
      const png = await renderCover({
        key: `story-${story.storyId}`,
        title: story.title,
        author: story.authorName,
      });
      await save(story.storyId, png);
    },

    /**
     * Checks an author's file by its bytes (JPEG, PNG or WebP; 4 MB; 40 megapixels; whole),
     * re-encodes it without metadata as a 2:3 portrait and stores it. Any refusal leaves the
     * old cover as it was: nothing is written until every step has succeeded.
     */
    async upload(storyId: number, bytes: Buffer): Promise<StoredCover> {
      const { width, height } = await inspect(bytes);
      const outWidth = Math.min(MAX_WIDTH, width, Math.floor((height * 2) / 3));
      const main = await reencodeUpload(bytes, AUTHORING.coverMaxPixels, (image) =>
        image
          .resize(outWidth, heightOf(outWidth), { fit: 'cover', position: 'centre' })
          .png(PNG_OUT),
      );
      return save(storyId, main);
    },

    /**
     * A served cover file by its name. A list size missing beside an existing main file
     * (covers stored before sizes existed) is drawn and kept on first request.
     */
    async read(file: string): Promise<{ body: Buffer; contentType: string } | null> {
      const wanted = parseCoverFile(file);
      if (!wanted) return null;
      const found = await storage.get(coverKey(wanted.storyId, wanted.width));
      if (found || !wanted.width) return found;
      return serialized(storage, wanted.storyId, async () => {
        const again = await storage.get(coverKey(wanted.storyId, wanted.width));
        if (again) return again;
        const main = await storage.get(coverKey(wanted.storyId));
        if (!main) return null;
        const sizes = await listSizes(main.body);
        for (const s of sizes)
          await storage.put(coverKey(wanted.storyId, s.width), s.body, 'image/webp');
        const body = sizes.find((s) => s.width === wanted.width)!.body;
        return { body, contentType: 'image/webp' };
      });
    },
  };
}
export type CoversService = ReturnType<typeof coversService>;
