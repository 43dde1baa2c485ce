import { Code, Container, Stack, Text, Title } from '@mantine/core';

/** Stands in until the screens of SPEC.md land (UI issues): says what works today. */
export function Placeholder() {
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>flakeboard</Title>
        <Text>The dashboard screens are on their way. The server and its API are running; reports are stored with:</Text>
        <Code block>npx flakeboard import playwright-report.json</Code>
        <Text c="dimmed" size="sm">
          Every command is described in the README and in <Code>npx flakeboard --help</Code>.
        </Text>
      </Stack>
    </Container>
  );
}
