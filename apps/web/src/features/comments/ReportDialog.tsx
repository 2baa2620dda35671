import { ENGAGEMENT } from '@kathamala/domain';
import { reportComment } from '../../api/engagement.ts';
import { ReasonDialog } from '../../components/ReasonDialog.tsx';
import { useI18n, type MessageKey } from '../../i18n/index.tsx';

/**
 * The reasons offered; the editors read the English words whatever the reader's language, so the
 * queue reads the same for everyone.
 */
export const REPORT_REASONS: { key: MessageKey; reason: string }[] = [
  { key: 'report.spam', reason: 'Spam or advertising' },
  { key: 'report.abuse', reason: 'Harassment or abuse' },
  { key: 'report.hate', reason: 'Hate speech' },
  { key: 'report.spoiler', reason: 'Spoiler' },
  { key: 'report.other', reason: 'Something else' },
];

/** What is sent: the chosen reason, and the reader's own words after it when they wrote some. */
export const reportReason = (reason: string, details: string): string => {
  const extra = details.trim();
  return (extra ? `${reason}: ${extra}` : reason).slice(0, ENGAGEMENT.reportReasonChars);
};

/**
 * The reason dialog asking why a comment is reported; says thanks once it is in the queue.
 * `send` and `title` report something else the same way (a community post or profile).
 */
export function ReportDialog(props: {
  commentId?: number;
  send?: (reason: string) => Promise<unknown>;
  title?: string;
  onClose: () => void;
}) {
  const { t } = useI18n();
  return (
    <ReasonDialog
      title={props.title ?? t('report.title')}
      label={t('report.details')}
      submitLabel={t('report.send')}
      required={false}
      rows={2}
      maxLength={ENGAGEMENT.reportReasonChars - 40}
      choices={{
        question: t('report.why'),
        options: REPORT_REASONS.map((r) => ({ label: t(r.key), reason: r.reason })),
        compose: reportReason,
      }}
      thanks={t('report.thanks')}
      send={props.send ?? ((reason) => reportComment(props.commentId ?? 0, reason))}
      onClose={props.onClose}
    />
  );
}
