import { Navigate } from 'react-router';
import { SkeletonLines } from '../components/Skeleton.tsx';
import { useSession } from '../features/auth/useSession.ts';
import { RegisterAuthor } from '../features/publish/RegisterAuthor.tsx';
import { Workspace } from '../features/publish/Workspace.tsx';
import { useI18n } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';

const HERE = '/publish/story/';

/**
 * /publish/story/ (menu: Write a story). A visitor is sent to log in and comes back here; a
 * reader who is not an author yet is offered to become one; an author gets the workspace.
 * Loaded only when visited: the editor (TipTap) is in this page's chunk, not the reader's.
 */
export default function PublishPage() {
  const { t } = useI18n();
  const session = useSession();
  useDocumentTitle(t('publish.title'));
  if (session.status === 'unknown') return <SkeletonLines lines={6} label={t('common.loading')} />;
  if (session.status === 'visitor')
    return <Navigate to={`/login?redirect=${encodeURIComponent(HERE)}`} replace />;
  if (!session.author) return <RegisterAuthor defaultName={session.name} />;
  return <Workspace />;
}
