import { Button, Card, Text, Title } from '@mantine/core';
import { ApiError } from '../../api/mutator';
import { useGetCommunityInvite } from '../../api/gen/subscription/subscription';

/** The Premium community chat invite. */
export function CommunityInvite() {
  const invite = useGetCommunityInvite({ query: { retry: false } });
  if (invite.isPending) return null;
  if (invite.isError) {
    const notSetUp = invite.error instanceof ApiError && invite.error.status === 404;
    return (
      <Text c="dimmed">
        {notSetUp
          ? 'Your community space is being set up. Check back soon.'
          : "We couldn't load your community invite right now."}
      </Text>
    );
  }
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={4}>Join the Percolate community</Title>
      <Text size="sm" c="dimmed" mb="sm">
        A space to share reflections with other Premium members.
      </Text>
      <Button component="a" href={invite.data.url} target="_blank" rel="noopener noreferrer">
        Open the community
      </Button>
    </Card>
  );
}
