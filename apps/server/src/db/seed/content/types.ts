/** The shape of the demo stories the seed loads into an empty database. */

export type CategorySlug =
  | 'romance'
  | 'mystery'
  | 'family'
  | 'fantasy'
  | 'history'
  | 'adventure'
  | 'horror'
  | 'humour';

export interface SeedAuthor {
  /** Stable key other seed entries refer to, e.g. 'nilmini'. */
  key: string;
  /** Pen name as readers see it (Sinhala or English script). */
  name: string;
  /** Login e-mail of the author's demo account, e.g. 'nilmini@demo.kathamala.lk'. */
  email: string;
  /** A few sentences for the public author page. */
  bio?: string;
  /** Author's own billing app; omit to use the product app (keyword 'REG KATHAMALA'). */
  app?: { appId: string; keyword: string };
}

export interface SeedEpisode {
  title: string;
  /** The episode text: paragraphs separated by a blank line ("\n\n"). 2 KB to 10 KB of UTF-8. */
  content: string;
  /** True for an episode only members may read in an otherwise free story. */
  membersOnly?: boolean;
}

export interface SeedStory {
  /** Stable key, e.g. 'moonlit-lagoon'. */
  key: string;
  title: string;
  /** One to three sentences shown on cards and in link previews. */
  description: string;
  language: 'sinhala' | 'english';
  /** 0 text story with numbered parts; 2 and 3 other kinds (no end-of-episode footer). */
  kind: 0 | 2 | 3;
  category: CategorySlug;
  ongoing: boolean;
  membersOnly: boolean;
  authorKey: string;
  /** Days from the seed's run until release; a positive number makes it an upcoming story. */
  releaseInDays?: number;
  /** Reads and rating shown on lists, to make the demo look lived-in. */
  reads: number;
  rating: number;
  /** Part of a series: stories with the same series key are its seasons, in `season` order. */
  series?: { key: string; title: string; season: number };
  episodes: SeedEpisode[];
}
