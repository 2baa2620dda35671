import type { useStoryList } from '../../api/queries.ts';
import { Pagination } from './Pagination.tsx';
import { StoryGrid } from './StoryGrid.tsx';

/** One page of a story list with its pagination, as home and category pages show it. */
export function PagedStoryGrid(props: {
  list: ReturnType<typeof useStoryList>;
  hrefFor: (page: number) => string;
}) {
  const { list } = props;
  return (
    <>
      <StoryGrid
        stories={list.data?.stories}
        error={list.error}
        onRetry={() => void list.refetch()}
        eagerCovers
        stale={list.isPlaceholderData}
      />
      {list.data && (
        <Pagination
          page={list.data.page}
          pageSize={list.data.pageSize}
          total={list.data.total}
          hrefFor={props.hrefFor}
        />
      )}
    </>
  );
}
