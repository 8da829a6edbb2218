/** The mood page's own shapes, which the charts draw (page data maps the API's answers onto them). */

/** One day's mood: the mean of that day's check-ins. */
export interface DayMood {
  /** 'YYYY-MM-DD' */
  date: string;
  mood: number;
}

/** The mean mood on one day of the week, 0 for Monday … 6 for Sunday. */
export interface WeekdayMood {
  weekday: number;
  /** null when no check-in fell on that weekday */
  mean: number | null;
  count: number;
}

/** A tag's mean mood on check-ins with it and without it, and how many of each. */
export interface TagPattern {
  tag: string;
  withMean: number;
  withCount: number;
  withoutMean: number;
  withoutCount: number;
}
