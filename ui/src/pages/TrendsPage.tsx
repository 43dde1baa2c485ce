import { PageHeader } from '../components/PageHeader.js';

/** Placeholder until its UI issue lands. */
export function TrendsPage() {
  return <PageHeader title="Test Trends (Last 30 Days)" />;
}
