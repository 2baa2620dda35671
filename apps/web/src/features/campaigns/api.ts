import { useQuery } from '@tanstack/react-query';
import {
  campaignPaths,
  type AnswerValue,
  type CampaignCarrier,
  type CampaignInput,
  type CampaignSummary,
  type ContestStandings,
  type ManagedCampaign,
  type ParticipationAnswer,
  type Questioner,
} from '@kathamala/domain';
import { apiRequest } from '../../api/client.ts';
import { viewerKey } from '../../api/engagement.ts';
import { getToken } from '../auth/session.ts';

/** Campaigns as the web app calls them (issue 30). */

export const useCampaigns = () =>
  useQuery({
    queryKey: [campaignPaths.list()],
    queryFn: ({ signal }) =>
      apiRequest<{ campaigns: CampaignSummary[] }>(campaignPaths.list(), { signal }),
  });

export const useCampaign = (id: number) =>
  useQuery({
    queryKey: [campaignPaths.detail(id)],
    queryFn: ({ signal }) =>
      apiRequest<{ campaign: CampaignSummary }>(campaignPaths.detail(id), { signal }),
  });

/** The contest's ranking and the accepted ad metrics. */
export const useStandings = (id: number, enabled = true) =>
  useQuery({
    queryKey: [campaignPaths.stats(id)],
    queryFn: ({ signal }) => apiRequest<ContestStandings>(campaignPaths.stats(id), { signal }),
    enabled,
  });

/** Step 1: a code by SMS to the number. */
export const participate = (body: {
  campaignId: number;
  questionerId: number;
  mobile: string;
  carrier: CampaignCarrier;
}) => apiRequest<ParticipationAnswer>(campaignPaths.participation(), { method: 'POST', body });

/** Step 2: the questionnaire, with the participant's own token in the Authorization header. */
export const fetchQuestioner = (id: number) => apiRequest<Questioner>(campaignPaths.questioner(id));

/** Step 3: the code and the answers. */
export const submitResponse = (body: {
  participantId: number;
  refId: string;
  mfaCode: string;
  answers: Record<string, AnswerValue>;
}) => apiRequest<{ responseId: number }>(campaignPaths.response(), { method: 'POST', body });

export const useManagedList = (enabled: boolean) =>
  useQuery({
    queryKey: [campaignPaths.manage(), viewerKey()],
    queryFn: ({ signal }) =>
      apiRequest<{ campaigns: CampaignSummary[] }>(campaignPaths.manage(), { signal }),
    enabled,
  });

export const useManaged = (id: number | null) =>
  useQuery({
    queryKey: [campaignPaths.manageOne(id ?? 0), viewerKey()],
    queryFn: ({ signal }) =>
      apiRequest<ManagedCampaign>(campaignPaths.manageOne(id ?? 0), { signal }),
    enabled: id !== null,
  });

export const saveCampaign = (campaign: CampaignInput) =>
  apiRequest<{ campaignId: number }>(campaignPaths.manage(), {
    method: 'POST',
    body: { campaign },
  });

export const enterStory = (campaignId: number, storyId: number) =>
  apiRequest<{ entryId: number }>(campaignPaths.entry(campaignId), {
    method: 'POST',
    body: { storyId },
  });

/**
 * Downloads the responses' CSV: the call needs the editor's token, so the file is fetched and
 * handed to the browser as a download.
 */
export async function downloadCsv(id: number): Promise<void> {
  const token = getToken();
  const res = await fetch(campaignPaths.csv(id), {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!res.ok) throw new Error(`CSV ${res.status}`);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = `campaign-${id}-responses.csv`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Editors' judging: rubric scores while the contest runs, winners after it ends. */
export const judgeContest = (
  campaignId: number,
  body: { rubric?: { storyId: number; score: number }[]; winners?: number[] },
) => apiRequest<{ campaignId: number }>(campaignPaths.judge(campaignId), { method: 'POST', body });

/** Uploads a campaign's banner (multipart, field `image`). */
export async function uploadBanner(campaignId: number, file: File): Promise<void> {
  const form = new FormData();
  form.append('image', file);
  const token = getToken();
  const res = await fetch(campaignPaths.banner(campaignId), {
    method: 'POST',
    body: form,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message ?? `banner ${res.status}`);
  }
}
