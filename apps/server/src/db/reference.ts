import { sql } from 'drizzle-orm';
import { CATEGORIES, PRODUCT_APP_ID, PRODUCT_KEYWORD } from '@kathamala/domain';
import type { Db } from './client.ts';
import { billingApps, categories } from './schema.ts';

/** Rows every deployment needs: the categories and the product's billing app. Idempotent. */
export async function ensureReferenceData(db: Db) {
  for (const c of CATEGORIES) {
    await db
      .insert(categories)
      .values({ slug: c.slug, nameEn: c.name.en, nameSi: c.name.si })
      .onConflictDoUpdate({
        target: categories.slug,
        set: { nameEn: sql`excluded.name_en`, nameSi: sql`excluded.name_si` },
      });
  }
  await db
    .insert(billingApps)
    .values({ appId: PRODUCT_APP_ID, name: 'Kathamala', keyword: PRODUCT_KEYWORD })
    .onConflictDoNothing();
}
