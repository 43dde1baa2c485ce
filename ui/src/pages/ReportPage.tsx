import { PageHeader } from '../components/PageHeader.js';

/** Placeholder until its UI issue lands. */
export function ReportPage() {
  return <PageHeader title="Executive Report" />;
}
