import { PageHeader } from '../components/PageHeader.js';

/** Placeholder until its UI issue lands. */
export function SlowTestsPage() {
  return <PageHeader title="Test Performance Analysis" />;
}
