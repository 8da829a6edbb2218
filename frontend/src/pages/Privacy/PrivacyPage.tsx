import { Anchor, Button, Code, Container, List, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { COLOR_SCHEME_STORAGE_KEY } from '../../app/theme';
import { CHECKIN_QUEUE_PREFIX, STORAGE_KEYS } from '../../auth/storage';

/** The sign-in cookie the server sets (backend/internal/httpapi/oidc_handlers.go; a Go test compares). */
export const FLOW_COOKIE = { name: 'percolate_oidc', minutes: 10 } as const;

/** How long contact messages are kept (backend/internal/contact.Retention; a Go test compares). */
export const CONTACT_MESSAGE_DAYS = 90;

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Stack component="section" aria-labelledby={id} gap="xs">
      <Title order={2} id={id} fz="h3">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** /privacy: the privacy policy (spec §2 and §9). */
export function PrivacyPage() {
  return (
    <Container size="sm" py="xl">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1}>Privacy Policy</Title>
          <Text c="dimmed">Last updated July 29, 2025</Text>
        </Stack>
        <Text>
          This policy explains what Percolate collects when you use it, why, and the choices you have. We keep it short
          and plain on purpose.
        </Text>

        <Section id="privacy-collected" title="Information we collect">
          <List spacing={4}>
            <List.Item>Account details: your name, e-mail address and a securely hashed password.</List.Item>
            <List.Item>
              Profile details you choose to add: your age, focus areas, primary concerns and topics you would rather
              avoid.
            </List.Item>
            <List.Item>Your conversations with the companion, and the summaries and emotion labels of ended sessions.</List.Item>
            <List.Item>
              Memory: a few short notes from ended sessions (like an exam coming up) so the companion can pick up where
              you left off. Nothing is noted from your sensitive topics or from hard moments. You can see, edit and
              delete every note on your profile, or turn memory off.
            </List.Item>
            <List.Item>Subscription status. Card details go to our payment provider and never reach our servers.</List.Item>
            <List.Item>Basic technical data, such as your IP address, used to keep the service secure and to limit abuse.</List.Item>
          </List>
        </Section>

        <Section id="privacy-use" title="How we use your information">
          <Text>
            We use it to run Percolate: to sign you in, to shape the companion&apos;s replies around your profile, to
            create session summaries and insights, to send account e-mails (verification, password reset, reports you
            ask for), and to answer you when you contact us. We do not sell your data or use it for advertising.
          </Text>
        </Section>

        <Section id="privacy-cookies" title="Cookies">
          <Text>
            Percolate keeps you signed in without a cookie: your browser&apos;s local storage holds a short-lived access
            token, a refresh token that changes every time it is used, and your name and e-mail, under the names{' '}
            <Code>{STORAGE_KEYS.accessToken}</Code>, <Code>{STORAGE_KEYS.refreshToken}</Code> and{' '}
            <Code>{STORAGE_KEYS.user}</Code>. Logging out removes them. Your light or dark theme is kept there too, as{' '}
            <Code>{COLOR_SCHEME_STORAGE_KEY}</Code>. A check-in you make while offline waits there, under{' '}
            <Code>{CHECKIN_QUEUE_PREFIX}</Code> and your account&apos;s id, until it is sent.
          </Text>
          <Text>
            The only cookie, <Code>{FLOW_COOKIE.name}</Code>, lives for {FLOW_COOKIE.minutes} minutes while you sign in
            with Google, and is removed when you come back. On a secure connection this sign-in session cookie is HTTP-only,
            Secure and SameSite=None: scripts cannot read it, it is only sent over encrypted connections, and it works
            with our sign-in provider. While that sign-in is under way, the tab&apos;s session storage also holds a random
            value that ties it to this tab, and the page to return to; both go when you come back. We do not use
            advertising or tracking cookies.
          </Text>
        </Section>

        <Section id="privacy-third-parties" title="Third parties">
          <Text>
            We share only what is needed with the services that help us run Percolate: our card payment provider (for
            subscriptions), the AI model provider that generates replies, the e-mail provider that delivers our
            messages, and, if you use it, the identity provider you sign in with.
          </Text>
          <Text>
            When this server uses an AI model provider, each reply sends it your messages in that session together with
            your profile text: your age, focus areas, primary concerns and the sensitive topics you listed (so the
            companion can steer away from them), what Percolate remembers from earlier sessions, and a summary of
            earlier parts of a long session. It also writes those summaries, and the notes to remember, from the
            conversation; in voice mode it speaks the replies, and turns your recorded voice into text where your
            browser cannot. Your name and e-mail address are never sent. Without a provider, replies come from
            Percolate&apos;s own offline companion and nothing leaves the server.
          </Text>
        </Section>

        <Section id="privacy-retention" title="Data retention">
          <Text>
            We keep your account and conversations while your account is open. When you ask us to delete your account,
            your personal data is erased within 30 days of the deletion request.
          </Text>
          <Text>
            Messages you send us through the contact form are kept for {CONTACT_MESSAGE_DAYS} days so we can answer
            them, then deleted. Background tasks, such as sending you an e-mail, keep a note of which account they were
            for until an hour after they finish, and deleting your account removes them at once.
          </Text>
          <Text>
            Our server logs record each request&apos;s path, status and timing to keep the service running; they never
            hold your messages, passwords or sign-in tokens. When no mail service is configured, the e-mails we would
            send are written to a folder on the server instead, until its operator removes them. For safety we count how
            often crisis resources were shown each day, with no name and no message attached.
          </Text>
        </Section>

        <Section id="privacy-rights" title="Your rights">
          <Text>
            You can see and change your profile and what Percolate remembers at any time, delete individual sessions,
            download a copy of all your data from your profile (Download my data), and ask us for its deletion. Write to
            us and we will respond promptly.
          </Text>
        </Section>

        <Section id="privacy-security" title="Security">
          <Text>
            Connections are encrypted, passwords are stored only as strong hashes, and access to your data is limited to
            you. No system is perfectly secure, but we work to protect your information and will tell you if something
            goes wrong.
          </Text>
        </Section>

        <Section id="privacy-children" title="Children under 13">
          <Text>
            Percolate is not directed to children under 13, and we do not knowingly collect personal data from them. If
            you believe a child under 13 has given us personal data, contact us and we will delete it.
          </Text>
        </Section>

        <Section id="privacy-changes" title="Changes to this policy">
          <Text>
            If we change this policy, we will update the date above and, for important changes, let you know by e-mail
            or in the app.
          </Text>
        </Section>

        <Section id="privacy-contact" title="Contact us">
          <Text>
            Questions about your privacy? We&apos;re happy to help. See also how Percolate handles{' '}
            <Anchor component={Link} to="/safety">
              moments of crisis
            </Anchor>
            .
          </Text>
          <Button component={Link} to="/team#contact" w="fit-content">
            Contact Us
          </Button>
        </Section>
      </Stack>
    </Container>
  );
}
