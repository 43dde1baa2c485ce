import { PageHeader } from '../components/PageHeader.js';

/** Placeholder until its UI issue lands. */
export function UploadPage() {
  return <PageHeader title="Upload" />;
}
