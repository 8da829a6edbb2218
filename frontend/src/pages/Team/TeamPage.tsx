import { Anchor, Badge, Button, Card, Container, Group, Image, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { IconBrandGithub, IconBrandLinkedin } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { CollapsibleSection } from '../../components/CollapsibleSection/CollapsibleSection';
import { content, type TeamMember } from '../../content/content';
import { supportEmail } from '../../content/supportEmail';
import { ContactForm } from '../../features/contact/ContactForm';

/** The two static listings of spec §2 and §9. */
const positions = [
  {
    title: 'Technical Assistant',
    text: 'Help us build and test Percolate: fix bugs, try new ideas and keep things running smoothly.',
  },
  {
    title: 'Social Media Coordinator',
    text: 'Share what Percolate is about: plan posts, talk with our community and help more people find a calm corner.',
  },
];

function MemberCard({ member, sample }: { member: TeamMember; sample: boolean }) {
  return (
    <Card component="article" withBorder radius="md" padding="lg" data-testid="team-member">
      <Stack align="center" ta="center" gap="xs">
        <Image src={member.photo} alt={`Photo of ${member.name}`} w={96} h={96} width={96} height={96} radius="50%" />
        {/* h2: the page has no level between its title and the members (heading order, issue 36). */}
        <Title order={2} fz="h3">
          {member.name}
        </Title>
        {sample ? (
          <Badge variant="light" color="clay">
            Sample profile
          </Badge>
        ) : null}
        <Text fw={600}>{member.role}</Text>
        <Text>{member.school}</Text>
        <Text>{member.degree}</Text>
        <Text c="dimmed">{member.classYear}</Text>
        <Group gap="md" justify="center" mt="xs">
          <Anchor href={member.professionalNetworkUrl} target="_blank" rel="noopener noreferrer" aria-label={`${member.name} on LinkedIn`}>
            <Group gap={4} component="span" wrap="nowrap">
              <IconBrandLinkedin size={18} aria-hidden />
              LinkedIn
                          </Group>
          </Anchor>
          <Anchor href={member.codeHostingUrl} target="_blank" rel="noopener noreferrer" aria-label={`${member.name} on GitHub`}>
            <Group gap={4} component="span" wrap="nowrap">
              <IconBrandGithub size={18} aria-hidden />
              GitHub
                          </Group>
          </Anchor>
        </Group>
      </Stack>
    </Card>
  );
}

/** /team: the team, the story, contact and open positions. */
export function TeamPage() {
  const { hash } = useLocation();
  const reduceMotion = useReducedMotion(false, { getInitialValueInEffect: false });
  const { team, story, sample } = content;
  const mailbox = supportEmail();

  // The page arrives as a lazy chunk, after the browser's own jump to the
  // anchor, so /team#contact is scrolled into view here.
  useEffect(() => {
    if (hash === '#contact') {
      document.getElementById('contact')?.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: 'start' });
    }
  }, [hash, reduceMotion]);

  return (
    <Container size="md" py="xl">
      <Stack gap={48}>
        <Stack component="section" aria-labelledby="team-title" gap="lg">
          <Title order={1} id="team-title" ta="center">
            Meet the Team
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
            {team.map((m) => (
              <MemberCard key={m.name} member={m} sample={sample} />
            ))}
          </SimpleGrid>
        </Stack>

        <CollapsibleSection title="Our Story">
          <Stack gap="sm">
            {story.map((p) => (
              <Text key={p}>{p}</Text>
            ))}
          </Stack>
        </CollapsibleSection>

        <Card
          component="section"
          id="contact"
          aria-labelledby="contact-title"
          withBorder
          radius="md"
          padding="lg"
          style={{ scrollMarginTop: 80 }}
        >
          <Stack gap="md">
            <Title order={2} id="contact-title">
              Interested in joining us?
            </Title>
            <Text>
              Contact Us: write to{' '}
              <Anchor href={`mailto:${mailbox}`}>{mailbox}</Anchor> or send us a message here.
            </Text>
            <ContactForm />
          </Stack>
        </Card>

        <Stack component="section" aria-labelledby="positions-title" gap="lg">
          <Title order={2} id="positions-title">
            Available Positions
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            {positions.map((p) => (
              <Card key={p.title} component="article" withBorder radius="md" padding="lg" data-testid="position">
                <Stack gap="sm">
                  <Title order={3}>{p.title}</Title>
                  <Text>{p.text}</Text>
                  <Text fw={600}>Requirements</Text>
                  <ul style={{ margin: 0 }}>
                    <li>Age 18+</li>
                    <li>Current college student</li>
                  </ul>
                  <Button disabled w="fit-content">
                    Apply Now (Coming Soon)
                  </Button>
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
        </Stack>
      </Stack>
    </Container>
  );
}
