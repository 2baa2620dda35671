import { Link, useSearchParams } from 'react-router';
import { useCategories, useStoryList } from '../api/queries.ts';
import { SkeletonLines } from '../components/Skeleton.tsx';
import { PagedStoryGrid } from '../features/stories/PagedStoryGrid.tsx';
import { useI18n } from '../i18n/index.tsx';
import { useDocumentTitle } from '../useDocumentTitle.ts';
import ui from '../components/ui.module.css';
import { listHref, parsePage } from './listParams.ts';
import styles from '../components/page.module.css';

/** /category?c={slug}: the category chips and the stories of the chosen one. */
export default function CategoryPage() {
  const { t, lang } = useI18n();
  const [params] = useSearchParams();
  const slug = params.get('c') ?? 'all';
  const page = parsePage(params.get('page'));
  const categories = useCategories();
  const list = useStoryList({ category: slug, page });
  const current = categories.data?.find((c) => c.slug === slug);
  const title = current?.name[lang] ?? t('category.title');
  useDocumentTitle(title);
  const href = (c: string, p = 1) => listHref('/category', { c, page: p }, { c: 'all', page: 1 });

  return (
    <section className={styles.stories} aria-labelledby="category-heading">
      <div className={styles.listHead}>
        <h1 id="category-heading" className={styles.heading}>
          {title}
        </h1>
        <nav aria-label={t('category.choose')}>
          {categories.data ? (
            <ul className={ui.chips}>
              <li>
                <Link
                  className={ui.chip}
                  to={href('all')}
                  aria-current={slug === 'all' ? 'page' : undefined}
                >
                  {t('category.all')}
                </Link>
              </li>
              {categories.data.map((c) => (
                <li key={c.slug}>
                  <Link
                    className={ui.chip}
                    to={href(c.slug)}
                    aria-current={c.slug === slug ? 'page' : undefined}
                    lang={lang}
                  >
                    {c.name[lang]}
                  </Link>
                </li>
              ))}
            </ul>
          ) : categories.isError ? null : (
            <SkeletonLines lines={1} />
          )}
        </nav>
      </div>
      <PagedStoryGrid list={list} hrefFor={(p) => href(slug, p)} />
    </section>
  );
}
