import { PageHeader } from '../components/PageHeader.js';

/** Placeholder until its UI issue lands. */
export function FlakyTestsPage() {
  return <PageHeader title="Flaky Test Analysis" />;
}
