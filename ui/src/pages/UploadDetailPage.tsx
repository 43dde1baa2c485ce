import { PageHeader } from '../components/PageHeader.js';

/** Placeholder until its UI issue lands. */
export function UploadDetailPage() {
  return <PageHeader title="Test Run Details" />;
}
