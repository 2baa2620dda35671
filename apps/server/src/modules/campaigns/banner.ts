import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { ObjectStorage } from '../../adapters/storage/types.ts';
import type { Db } from '../../db/client.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { notFound } from '../../errors.ts';
import { recordAudit } from '../community/audit.ts';
import { inspectUpload, reencodeUpload } from '../covers/service.ts';

/** The banner's one WebP width: a wide page column at 2x; a smaller image is never enlarged. */
const BANNER_WIDTH = 1200;
export const BANNER_LIMITS = { maxBytes: 5 * 1024 * 1024, maxPixels: 40_000_000, noun: 'banner' };
/** Served names: content-addressed, so a file under a name never changes. */
export const BANNER_FILE_PATTERN = '^banner_[1-9][0-9]{0,9}_[0-9a-f]{16}\\.webp$';
const fileName = (id: number, version: string) => `banner_${id}_${version}.webp`;
const storageKey = (file: string) => `campaigns/${file}`;

/** Where a banner is served. */
export const bannerPath = (id: number, version: string) =>
  `/images/campaigns/${fileName(id, version)}`;

/** Campaign banners: sniffed, re-encoded (no metadata) to WebP and stored like covers. */
export function campaignBanners(db: Db, storage: ObjectStorage) {
  return {
    /** Stores a banner for the campaign, audited; answers where it is served. */
    async upload(editor: Viewer, campaignId: number, bytes: Buffer) {
      const { rows } = (await db.execute(
        sql`select id from campaigns where id = ${campaignId}`,
      )) as unknown as { rows: unknown[] };
      if (!rows.length) throw notFound('We could not find that campaign.');
      await inspectUpload(bytes, BANNER_LIMITS);
      const body = await reencodeUpload(bytes, BANNER_LIMITS.maxPixels, (image) =>
        image.resize({ width: BANNER_WIDTH, withoutEnlargement: true }).webp({ quality: 80 }),
      );
      const version = createHash('sha256').update(body).digest('hex').slice(0, 16);
      await storage.put(storageKey(fileName(campaignId, version)), body, 'image/webp');
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        await tx.execute(
          sql`update campaigns set banner_version = ${version}, updated_at = now() where id = ${campaignId}`,
        );
        await recordAudit(tx, {
          actorId: editor.userId,
          action: 'campaign.banner',
          targetKind: 'campaign',
          targetId: campaignId,
          detail: { version },
        });
      });
      return { campaignId, bannerUrl: bannerPath(campaignId, version) };
    },

    /** A stored banner file's bytes, or null. */
    read: async (file: string) => {
      const found = await storage.get(storageKey(file));
      return found ? { body: found.body } : null;
    },
  };
}

export type CampaignBanners = ReturnType<typeof campaignBanners>;
