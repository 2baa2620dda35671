/** Who is calling: the logged-in user behind a verified token and a live session. */
export interface Viewer {
  userId: number;
  sessionId: string;
  name: string;
  author: boolean;
}
