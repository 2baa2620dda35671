import { createHash } from 'node:crypto';
import { COMMUNITY, type Avatar, type CommunityImage } from '@kathamala/domain';
import type { ObjectStorage } from '../../adapters/storage/types.ts';
import { invalid } from '../../errors.ts';
import { inspectUpload, reencodeUpload } from '../covers/service.ts';

/** The WebP widths of a post image (a phone's column at 1x, 2x and 3x-ish); never enlarged. */
export const POST_IMAGE_WIDTHS = [320, 640, 1080] as const;
/** The square sizes of a profile picture: a post's 32-48 CSS px badge to a profile page's 128. */
export const AVATAR_WIDTHS = [96, 192, 384] as const;
const WEBP_OUT = { quality: 80, effort: 4 } as const;

/** Served file names: content-addressed (a hash of the bytes), so they never change. */
export const COMMUNITY_FILE_PATTERN = '^[ap]_[0-9a-f]{16}_w[0-9]{2,4}\\.webp$';
const fileName = (kind: 'p' | 'a', version: string, width: number) =>
  `${kind}_${version}_w${width}.webp`;
const storageKey = (file: string) => `community/${file}`;

/** An image as stored: its version (in its file names) and the size of its largest file. */
export interface StoredImage {
  version: string;
  width: number;
  height: number;
}

/** The WebP sizes actually made for an image `width` wide: smaller ones, and one at its own width. */
const widthsFor = (widths: readonly number[], width: number) => {
  const below = widths.filter((w) => w < width);
  const at = widths.find((w) => w >= width);
  return at === undefined ? below : [...below, at];
};

/** Community images: post images and profile pictures, checked, re-encoded and stored as WebP sizes. */
export function communityImages(storage: ObjectStorage, imagesHost: string) {
  const base = `${imagesHost.replace(/\/$/, '')}/community`;
  const limits = {
    maxBytes: COMMUNITY.imageBytes,
    maxPixels: COMMUNITY.imageMaxPixels,
    noun: 'A picture',
  };

  /** Checks, re-encodes (no EXIF, no GPS) and stores every size; nothing is kept on a refusal. */
  const store = async (
    kind: 'p' | 'a',
    bytes: Buffer,
    widths: readonly number[],
  ): Promise<StoredImage> => {
    const { width, height } = await inspectUpload(bytes, limits);
    if (Math.min(width, height) < COMMUNITY.imageMinSide)
      throw invalid(
        `This image is ${width} × ${height} pixels; a picture needs at least ${COMMUNITY.imageMinSide} pixels on each side.`,
      );
    const square = kind === 'a';
    const files = await Promise.all(
      widths.map(async (target) => ({
        target,
        body: await reencodeUpload(bytes, COMMUNITY.imageMaxPixels, (image) =>
          (square
            ? // Every size is made, a small picture blown up a little: a badge's srcset never misses.
              image.resize(target, target, { fit: 'cover', position: 'centre' })
            : image.resize({ width: target, withoutEnlargement: true })
          ).webp(WEBP_OUT),
        ),
      })),
    );
    const largest = files[files.length - 1]!.body;
    const version = createHash('sha256').update(largest).digest('hex').slice(0, 16);
    const largestWidth = widths[widths.length - 1]!;
    const outWidth = square ? largestWidth : Math.min(width, largestWidth);
    const outHeight = square ? outWidth : Math.round((height * outWidth) / width);
    for (const target of square ? widths : widthsFor(widths, outWidth)) {
      const file = files.find((f) => f.target === target)!;
      await storage.put(storageKey(fileName(kind, version, target)), file.body, 'image/webp');
    }
    return { version, width: outWidth, height: outHeight };
  };

  const srcset = (kind: 'p' | 'a', version: string, widths: readonly number[], width: number) => {
    const made = widthsFor(widths, width);
    return made
      .map((w) => `${base}/${fileName(kind, version, w)} ${Math.min(w, width)}w`)
      .join(', ');
  };

  return {
    /** Stores a post image; refusals (not an image, too large, damaged) are 4xx with a sentence. */
    storePostImage: (bytes: Buffer) => store('p', bytes, POST_IMAGE_WIDTHS),
    /** Stores a profile picture, cut square. */
    storeAvatar: (bytes: Buffer) => store('a', bytes, AVATAR_WIDTHS),

    /** A post image as answers show it. */
    postImage(row: { id: number; version: string; width: number; height: number }): CommunityImage {
      const made = widthsFor(POST_IMAGE_WIDTHS, row.width);
      return {
        imageId: row.id,
        src: `${base}/${fileName('p', row.version, made[made.length - 1]!)}`,
        srcset: srcset('p', row.version, POST_IMAGE_WIDTHS, row.width),
        width: row.width,
        height: row.height,
      };
    },

    /** A profile picture by its version (null: none). */
    avatar(version: string | null): Avatar | null {
      if (!version) return null;
      // Pictures are stored at every size up to 384 or their own size; the badge sizes suffice.
      return {
        src: `${base}/${fileName('a', version, AVATAR_WIDTHS[1])}`,
        srcset: AVATAR_WIDTHS.map((w) => `${base}/${fileName('a', version, w)} ${w}w`).join(', '),
      };
    },

    /** A served file by its name, or null. */
    read: (file: string) => storage.get(storageKey(file)),
  };
}
export type CommunityImages = ReturnType<typeof communityImages>;
