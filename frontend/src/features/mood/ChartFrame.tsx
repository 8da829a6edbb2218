import type { ReactNode } from 'react';
import { Text } from '@mantine/core';
import { MOOD_COLORS, MOOD_LABELS, MOODS } from './moodScale';
import classes from './mood.module.css';

export interface ChartTable {
  caption: string;
  head: string[];
  rows: string[][];
}

interface Props {
  /** The sentence that says what the chart shows; visible under it, and all a screen reader needs with the table. */
  summary: string;
  table?: ChartTable;
  /** The SVG (hidden from screen readers: the sentence and the table say the same). */
  children: ReactNode;
}

/** A chart with its text alternative: a sentence under it and, one tap away, its numbers as a table. */
export function ChartFrame({ summary, table, children }: Props) {
  return (
    <figure className={classes.figure}>
      {children}
      <Text component="figcaption" size="sm" className={classes.caption}>
        {summary}
      </Text>
      {table && table.rows.length > 0 ? (
        <details className={classes.details}>
          <summary>Show as a table</summary>
          <table className={classes.table}>
            <caption>{table.caption}</caption>
            <thead>
              <tr>
                {table.head.map((h) => (
                  <th key={h} scope="col">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row) => (
                <tr key={row[0]}>
                  {row.map((cell, i) =>
                    i === 0 ? (
                      <th key={i} scope="row">
                        {cell}
                      </th>
                    ) : (
                      <td key={i}>{cell}</td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ) : null}
    </figure>
  );
}

/** The five moods with their colours, numbers and words. */
export function MoodKey() {
  return (
    <ul className={classes.key} aria-label="Mood key">
      {MOODS.map((m) => (
        <li key={m}>
          <span aria-hidden className={classes.swatch} style={{ background: MOOD_COLORS[m].fill, color: MOOD_COLORS[m].ink }}>
            {m}
          </span>
          {m} {MOOD_LABELS[m]}
        </li>
      ))}
    </ul>
  );
}
