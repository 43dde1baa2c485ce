import { PageHeader } from '../components/PageHeader.js';

/** Placeholder until its UI issue lands. */
export function BrowserAnalysisPage() {
  return <PageHeader title="Browser Analysis" />;
}
