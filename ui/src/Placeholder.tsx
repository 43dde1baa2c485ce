import { Anchor, Code, Container, Stack, Text, Title } from '@mantine/core';

/** Stands in until the screens of SPEC.md land (UI issues): says what works today. */
export function Placeholder() {
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>flakeboard</Title>
        <Text>The dashboard is on its way. Reports are already stored by the command line:</Text>
        <Code block>npx flakeboard import playwright-report.json</Code>
        <Text c="dimmed" size="sm">
          See the <Anchor href="https://www.npmjs.com/package/flakeboard">README</Anchor> for every command.
        </Text>
      </Stack>
    </Container>
  );
}
