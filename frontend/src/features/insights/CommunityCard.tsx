import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { ApiError } from '../../api/mutator';
import { useGetCommunityInvite } from '../../api/gen/subscription/subscription';

/** The Premium community chat invite, on a card of its own. */
export function CommunityCard() {
  const invite = useGetCommunityInvite({ query: { retry: false } });
  let body;
  if (invite.isPending) {
    body = <Text c="dimmed">Loading your community invite...</Text>;
  } else if (invite.isError) {
    const notSetUp = invite.error instanceof ApiError && invite.error.status === 404;
    body = (
      <Text c="dimmed">
        {notSetUp ? 'Your community space is being set up. Check back soon.' : "We couldn't load your community invite right now."}
      </Text>
    );
  } else {
    body = (
      <>
        <Text size="sm" c="dimmed">
          A space to share reflections with other Premium members.
        </Text>
        <Button component="a" href={invite.data.url} target="_blank" rel="noopener noreferrer">
          Open the community
        </Button>
      </>
    );
  }
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="community-title">
      <Stack gap="sm" align="flex-start">
        <Title order={2} fz="h4" id="community-title">
          Join the Percolate community
        </Title>
        {body}
      </Stack>
    </Card>
  );
}
