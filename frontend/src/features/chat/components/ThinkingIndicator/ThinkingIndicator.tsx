import classes from './ThinkingIndicator.module.css';

/** One coffee bean: an oval with the centre crease. */
function Bean() {
  return (
    <svg className={classes.bean} width="12" height="16" viewBox="0 0 12 16" aria-hidden focusable="false">
      <ellipse cx="6" cy="8" rx="5.2" ry="7.2" fill="currentColor" />
      <path d="M6 1.5 C3.8 5 8.2 11 6 14.5" stroke="var(--percolate-color-surface)" strokeWidth="1.2" fill="none" />
    </svg>
  );
}

/** Shown while the companion is thinking: three beans pulsing gently (brand guide, chat). */
export function ThinkingIndicator() {
  return (
    <div className={classes.root} role="status" aria-label="Percolate is thinking">
      <Bean />
      <Bean />
      <Bean />
    </div>
  );
}
