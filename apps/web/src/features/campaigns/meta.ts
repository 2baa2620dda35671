import {
  campaignPaths,
  truncateGraphemes,
  type BootData,
  type CampaignSummary,
} from '@kathamala/domain';
import type { Translate } from '../../i18n/index.tsx';
import { pageTitle, type PageMeta } from '../../page-title.ts';

/**
 * Share tags of the campaign pages: the list, and a campaign (its title and description in the
 * page's language) from what the server prefetched; a campaign that is not there is a 404
 * page, and the editors' page is not indexed.
 */
export function campaignMeta(
  pathname: string,
  boot: Pick<BootData, 'data' | 'uiLang'>,
  t: Translate,
  base: PageMeta,
): PageMeta | null {
  if (/^\/campaigns\/?$/.test(pathname))
    return {
      ...base,
      title: pageTitle(t, t('campaigns.title')),
      description: t('campaigns.lead'),
      canonicalPath: '/campaigns',
    };
  if (/^\/campaigns\/manage\/?$/.test(pathname))
    return { ...base, title: pageTitle(t, t('manage.title')), noindex: true };
  const one = /^\/campaigns\/(\d+)\/?$/.exec(pathname);
  if (!one) return null;
  const id = Number(one[1]);
  const c = (boot.data[campaignPaths.detail(id)] as { campaign: CampaignSummary } | undefined)
    ?.campaign;
  if (!c) return { ...base, title: pageTitle(t, t('notFound.title')), noindex: true };
  const lang = boot.uiLang;
  return {
    title: pageTitle(t, c.title[lang] || c.title.en),
    description: truncateGraphemes(
      (c.description[lang] || c.description.en || t('campaigns.lead')).replace(/\s+/g, ' '),
      200,
      '…',
    ),
    canonicalPath: `/campaigns/${id}`,
    type: 'article',
  };
}
