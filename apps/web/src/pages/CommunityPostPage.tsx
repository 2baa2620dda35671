import { useNavigate, useParams } from 'react-router';
import { Link } from 'react-router';
import { isApiError } from '../api/client.ts';
import { ErrorNotice, InfoNotice } from '../components/Notice.tsx';
import { SkeletonLines } from '../components/Skeleton.tsx';
import { useLiked, usePost } from '../features/community/api.ts';
import { communityPages } from '../features/community/paths.ts';
import { PostCard } from '../features/community/PostCard.tsx';
import { useViewer } from '../features/community/useViewer.ts';
import { useI18n } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import { NotFoundPage } from './NotFoundPage.tsx';
import styles from '../features/community/community.module.css';

/** /community/post/{id}: one post with its comments open, rendered on the server with share tags. */
export default function CommunityPostPage() {
  const raw = useParams().postId ?? '';
  if (!/^[1-9]\d{0,9}$/.test(raw)) return <NotFoundPage />;
  return <PostView key={raw} postId={Number(raw)} />;
}

function PostView({ postId }: { postId: number }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  const query = usePost(postId);
  const { viewer } = useViewer();
  const reader = viewer !== null && viewer !== 'unknown';
  const liked = useLiked([postId], reader).data?.liked.includes(postId) ?? false;
  const missing =
    isApiError(query.error) && (query.error.status === 404 || query.error.status === 403);
  useDocumentTitle(
    query.data
      ? t('post.by', { name: query.data.post.author.username })
      : missing
        ? t('notFound.title')
        : undefined,
  );

  return (
    <div className={styles.page}>
      <p>
        <Link to={communityPages.feed()}>{`← ${t('community.title')}`}</Link>
      </p>
      {missing ? (
        <InfoNotice>
          <p>{t('post.notFound')}</p>
        </InfoNotice>
      ) : !query.data ? (
        query.isError ? (
          <ErrorNotice error={query.error} onRetry={() => void query.refetch()} />
        ) : (
          <SkeletonLines lines={4} label={t('common.loading')} />
        )
      ) : (
        <PostCard
          post={query.data.post}
          viewer={viewer}
          liked={liked}
          standalone
          onGone={() => void navigate(communityPages.feed())}
        />
      )}
    </div>
  );
}
