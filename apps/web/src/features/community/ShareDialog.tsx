import { sharePost } from './api.ts';
import { ReasonDialog } from '../../components/ReasonDialog.tsx';
import { useI18n } from '../../i18n/index.tsx';

/** Shares a post with the viewer's followers, with an optional line of their own. */
export function ShareDialog(props: { postId: number; onClose: () => void; onShared: () => void }) {
  const { t } = useI18n();
  return (
    <ReasonDialog
      title={t('post.shareTitle')}
      label={t('post.shareLabel')}
      submitLabel={t('post.shareSend')}
      required={false}
      onClose={props.onClose}
      send={(text) => sharePost(props.postId, text).then(props.onShared)}
    />
  );
}
