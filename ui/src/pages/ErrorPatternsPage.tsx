import { PageHeader } from '../components/PageHeader.js';

/** Placeholder until its UI issue lands. */
export function ErrorPatternsPage() {
  return <PageHeader title="Error Patterns" />;
}
