import classes from './MessageList.module.css';

/**
 * The crisis resources of a reply as links a phone can act on at once: call or
 * text 988, text HOME to 741741, findahelpline.com. The reply's text says the
 * same; these only save looking up a number in a hard moment.
 */
export function CrisisLinks() {
  return (
    <nav className={classes.crisis} aria-label="Crisis resources in this reply">
      <a href="tel:988">Call 988</a>
      <a href="sms:988">Text 988</a>
      <a href="sms:741741?&amp;body=HOME">Text HOME to 741741</a>
      <a href="https://findahelpline.com" target="_blank" rel="noopener noreferrer">
        findahelpline.com
      </a>
    </nav>
  );
}
