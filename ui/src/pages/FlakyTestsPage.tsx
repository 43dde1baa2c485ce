import { Button, Group, NativeSelect, Text } from '@mantine/core';
import { useState } from 'react';
import { TIME_RANGES } from '../lib/time-range.js';
import { PageHeader } from '../components/PageHeader.js';
import { PageStates } from '../components/PageState.js';
import { BranchPicker } from '../components/BranchPicker.js';
import { useQuarantine } from '../lib/quarantine.js';
import { FlakyDetailDialog, type DialogSelection } from './flaky/FlakyDetailDialog.js';
import { FlakyListContent } from './flaky/FlakyListContent.js';
import { useFlakyDeepLink } from './flaky/use-flaky-deep-link.js';
import { useFlakyList } from './flaky/use-flaky-list.js';

export function FlakyTestsPage() {
  const quarantine = useQuarantine();
  const list = useFlakyList();
  const [selection, setSelection] = useState<DialogSelection | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const openDialog = (next: DialogSelection) => {
    setSelection(next);
    setDialogOpen(true);
  };
  const { highlighted, rowRef } = useFlakyDeepLink(list, openDialog);
  const { answer, groups, days } = list;

  return (
    <>
      <PageHeader
        title="Flaky Test Analysis"
        subtitle={
          <span data-testid="flaky-window">
            Tests whose runs pass sometimes and fail other times, grouped by test across browsers: {days === 0 ? 'all time' : `last ${days} days`}
          </span>
        }
        actions={
          <Group gap="sm" align="flex-end" wrap="wrap">
            <BranchPicker value={list.branch} onChange={list.changeBranch} />
            <NativeSelect label="Time Range" data={TIME_RANGES} value={String(days)} onChange={(event) => list.changeDays(Number(event.currentTarget.value))} w={170} />
          </Group>
        }
      />
      <PageStates
        error={answer === undefined && groups.error ? { text: 'Failed to load flaky tests' } : null}
        loading={answer === undefined ? 'Loading flaky tests...' : null}
        empty={
          list.nothingStored
            ? {
                title: 'No flaky tests found!',
                body: (
                  <>
                    <Text c="dimmed">Flaky tests are tests that have multiple runs with different outcomes: they pass in some runs and fail in others.</Text>
                    {days !== 0 && (
                      <Button variant="light" mt="sm" onClick={() => list.changeDays(0)}>
                        None in the last {days} days: show all time
                      </Button>
                    )}
                  </>
                ),
              }
            : null
        }
      >
        <FlakyListContent
          list={list}
          highlighted={highlighted}
          rowRef={rowRef}
          onOpen={(group, entry) => openDialog({ group, entry })}
          quarantineOf={(group) => quarantine.entryFor(group.test_title, group.test_file)}
        />
      </PageStates>
      <FlakyDetailDialog selection={selection} opened={dialogOpen} onClose={() => setDialogOpen(false)} quarantineFor={quarantine.entryFor} branch={list.branch} />
    </>
  );
}
