import { PageHeader } from '../components/PageHeader.js';

/** Placeholder until its UI issue lands. */
export function DashboardPage() {
  return <PageHeader title="Dashboard" />;
}
