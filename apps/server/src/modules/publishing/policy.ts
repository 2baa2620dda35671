import type { Viewer } from '../../auth/viewer.ts';
import { forbidden } from '../../errors.ts';
import type { AuthorRow, PublishingRepo } from './repo.ts';

/** The viewer's author record; a reader who has not registered as an author gets 403. */
export async function requireAuthor(repo: PublishingRepo, viewer: Viewer): Promise<AuthorRow> {
  const author = await repo.authorOfUser(viewer.userId);
  if (!author) throw forbidden('Only authors can do this. Register as an author first.');
  return author;
}

/** Only a story's own author may see its drafts or change anything in it. */
export function mayChangeStory(
  authorId: number,
  story: { authorId: number },
  message = 'This story belongs to another author.',
): void {
  if (story.authorId !== authorId) throw forbidden(message);
}
