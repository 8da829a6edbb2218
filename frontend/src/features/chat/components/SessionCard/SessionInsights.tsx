import { Button, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { useGetChatSession } from '../../../../api/gen/chat/chat';
import type { SessionListItem } from '../../../../api/gen/model';
import { isEndedStatus } from '../../sessions';
import { EmotionChips } from '../EmotionChips/EmotionChips';
import classes from './SessionCard.module.css';

interface SessionInsightsProps {
  session: SessionListItem;
  /** The caller's tier includes summaries and emotions; without them (USER) the upgrade texts show. */
  summaries: boolean;
}

function Upgrade({ text }: { text: string }) {
  return (
    <Stack gap="xs" align="flex-start">
      <Group gap={6}>
        <IconLock size={16} aria-hidden />
        <Text fw={600} size="sm">
          Upgrade to View
        </Text>
      </Group>
      <Text size="sm" c="dimmed">
        {text}
      </Text>
      <Button component={Link} to="/about" size="xs">
        Upgrade Now
      </Button>
    </Stack>
  );
}

/** Mantine's accordion chevron. */
function Chevron() {
  return (
    <svg viewBox="0 0 15 15" fill="none" xmlns="http://www.w3.org/2000/svg" aria-hidden>
      <path
        d="M3.13523 6.15803C3.3241 5.95657 3.64052 5.94637 3.84197 6.13523L7.5 9.56464L11.158 6.13523C11.3595 5.94637 11.6759 5.95657 11.8648 6.15803C12.0536 6.35949 12.0434 6.67591 11.842 6.86477L7.84197 10.6148C7.64964 10.7951 7.35036 10.7951 7.15803 10.6148L3.15803 6.86477C2.95657 6.67591 2.94637 6.35949 3.13523 6.15803Z"
        fill="currentColor"
        fillRule="evenodd"
        clipRule="evenodd"
      />
    </svg>
  );
}

/** Up and Down arrows (round the ends), Home and End move between a card's dropdown buttons, as in Mantine's Accordion. */
function moveFocus(event: KeyboardEvent<HTMLButtonElement>) {
  const group = event.currentTarget.closest('[data-accordion]');
  if (!group) return;
  const controls = Array.from(group.querySelectorAll<HTMLButtonElement>('[data-accordion-control]'));
  const at = controls.indexOf(event.currentTarget);
  const steps: Record<string, number> = {
    ArrowDown: (at + 1) % controls.length,
    ArrowUp: (at - 1 + controls.length) % controls.length,
    Home: 0,
    End: controls.length - 1,
  };
  const next = steps[event.key];
  if (next === undefined) return;
  event.preventDefault();
  event.stopPropagation();
  controls[next].focus();
}

const NOT_ENDED = 'Please end this conversation for summary and emotions';

/**
 * The 'Session Summary' and 'Session Emotions' dropdowns of a card. Paid roles
 * get the summary and emotions of ended sessions from GET /api/chat/sessions/{id}
 * once a dropdown is opened; nothing is fetched for USER or for sessions still
 * going (spec §6).
 */
export function SessionInsights({ session, summaries }: SessionInsightsProps) {
  const free = !summaries;
  const ended = isEndedStatus(session.status);
  const [open, setOpen] = useState<string[]>([]);
  const [seen, setSeen] = useState(false);
  const id = useId();
  // Fetched when a dropdown is first opened, so a long list costs one request per card read.
  const detail = useGetChatSession(session.id, { query: { enabled: !free && ended && open.length > 0 } });

  const summary = detail.data?.sessionSummary ?? session.sessionSummary;
  const emotions = detail.data?.sessionEmotions ?? session.sessionEmotions ?? [];

  let summaryBody;
  let emotionsBody;
  if (free) {
    summaryBody = <Upgrade text="Upgrade to view session summaries" />;
    emotionsBody = <Upgrade text="Upgrade to view emotion analysis" />;
  } else if (!ended) {
    summaryBody = <Text size="sm" c="dimmed">{NOT_ENDED}</Text>;
    emotionsBody = <Text size="sm" c="dimmed">{NOT_ENDED}</Text>;
  } else if (detail.isPending) {
    summaryBody = <Text size="sm" c="dimmed">Loading...</Text>;
    emotionsBody = summaryBody;
  } else {
    // Model output is untrusted: rendered as text, never as HTML.
    summaryBody = <Text size="sm">{summary || 'No summary yet. It will appear here shortly.'}</Text>;
    emotionsBody =
      emotions.length > 0 ? (
        <EmotionChips emotions={emotions} />
      ) : (
        <Text size="sm" c="dimmed">
          No emotions recorded yet.
        </Text>
      );
  }

  const items = [
    { key: 'summary', label: 'Session Summary', body: summaryBody },
    { key: 'emotions', label: 'Session Emotions', body: emotionsBody },
  ];
  const toggle = (key: string) => {
    setSeen(true);
    setOpen((list) => (list.includes(key) ? list.filter((item) => item !== key) : [...list, key]));
  };

  // Mantine's separated Accordion rebuilt from plain elements (SessionCard.module.css): the same
  // look, roles and keys. The panels' contents are made once a dropdown is first opened, so a card
  // nobody opens costs two buttons.
  return (
    <div
      className={classes.items}
      data-accordion
      // The card opens the chat on click; the dropdowns must not.
      onClick={(event) => event.stopPropagation()}
    >
      {items.map(({ key, label, body }) => {
        const active = open.includes(key);
        return (
          <div key={key} className={classes.item} data-active={active || undefined}>
            <button
              type="button"
              className={`mantine-focus-auto ${classes.control}`}
              data-accordion-control
              id={`${id}-control-${key}`}
              aria-expanded={active}
              aria-controls={`${id}-panel-${key}`}
              onClick={() => toggle(key)}
              onKeyDown={moveFocus}
            >
              <span className={classes.chevron} data-rotate={active || undefined}>
                <Chevron />
              </span>
              <span className={classes.label}>{label}</span>
            </button>
            <div
              className={classes.panel}
              role="region"
              id={`${id}-panel-${key}`}
              aria-labelledby={`${id}-control-${key}`}
              hidden={!active}
            >
              {seen ? (
                <div className={classes.panelContent}>
                  <ScrollArea.Autosize mah={200} type="auto">
                    {body}
                  </ScrollArea.Autosize>
                </div>
              ) : null}
            </div>
          </div>
        );
      })}
    </div>
  );
}
