import { useSafetyResources } from '../../../safety/useSafetyResources';
import classes from './MessageList.module.css';

/**
 * The crisis resources of a reply as links a phone can act on at once: the emergency number
 * and the helplines of the user's country (the profile's, else the browser's proposal), then
 * findahelpline.com, which works everywhere. The reply's text says the same; these only save
 * looking up a number in a hard moment. Self-contained: it fetches what it shows.
 */
export function CrisisLinks() {
  const { resources } = useSafetyResources();
  const data = resources.data;
  return (
    <nav className={classes.crisis} aria-label="Crisis resources in this reply">
      {data?.covered ? (
        <>
          <a href={`tel:${data.emergency}`}>Call {data.emergency}</a>
          {data.lines.map((l) => (
            <span key={l.name} style={{ display: 'contents' }}>
              {l.callDial ? (
                <a href={`tel:${l.callDial}`} aria-label={`Call ${l.call} (${l.name})`}>
                  Call {l.call}
                </a>
              ) : null}
              {l.textDial ? (
                <a href={`sms:${l.textDial}`} aria-label={`Text ${l.text} (${l.name})`}>
                  Text {l.text}
                </a>
              ) : null}
            </span>
          ))}
        </>
      ) : null}
      <a href="https://findahelpline.com" target="_blank" rel="noopener noreferrer">
        findahelpline.com
      </a>
    </nav>
  );
}
