import { ActionIcon, Anchor, Container, Group, Stack, Text } from '@mantine/core';
import { IconBrandGithub, IconBrandInstagram, IconBrandLinkedin, IconMail } from '@tabler/icons-react';
import { Link } from 'react-router';
import { content } from '../../content/content';
import { supportEmail } from '../../content/supportEmail';

/** The public pages' footer (spec §2, landing page): social links, mailto, copyright. */
export function Footer() {
  const { social } = content;
  const mailbox = supportEmail();
  const socials = [
    { ...social.codeHosting, icon: IconBrandGithub },
    { ...social.professionalNetwork, icon: IconBrandLinkedin },
    { ...social.photoNetwork, icon: IconBrandInstagram },
  ];
  return (
    <Container component="footer" size="lg" py="xl" mt="xl" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <Stack align="center" gap="sm">
        <Group gap="xs" justify="center">
          {socials.map(({ label, url, icon: Icon }) => (
            <ActionIcon
              key={label}
              component="a"
              href={url}
              target="_blank"
              rel="noopener noreferrer"
              variant="subtle"
              size="lg"
              aria-label={`Percolate on ${label}`}
              title={label}
            >
              <Icon size={22} stroke={1.6} aria-hidden />
            </ActionIcon>
          ))}
        </Group>
        <Group gap="lg" justify="center">
          {mailbox && (
            <Anchor href={`mailto:${mailbox}`}>
              <Group gap={4} wrap="nowrap" component="span">
                <IconMail size={18} stroke={1.6} aria-hidden />
                {mailbox}
              </Group>
            </Anchor>
          )}
          <Anchor component={Link} to="/safety">
            Safety &amp; crisis support
          </Anchor>
          <Anchor component={Link} to="/privacy">
            Privacy Policy
          </Anchor>
        </Group>
        <Text size="sm" c="dimmed">
          © {new Date().getFullYear()} Percolate
        </Text>
      </Stack>
    </Container>
  );
}
