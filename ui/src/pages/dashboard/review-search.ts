import type { PendingUpload } from '../../../../core/api/uploads.js';

/** docs/screens.md#pending-uploads-review: a case-insensitive substring match on file_path, browser, project and uploader (the user, or the token or host that stored it), and the branch. */
export function filterPendingUploads(uploads: readonly PendingUpload[], query: string): PendingUpload[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [...uploads];
  return uploads.filter((upload) =>
    [upload.file_path, upload.browser, upload.project, upload.uploaded_by_username, upload.uploaded_via, upload.git_branch].some((field) => (field ?? '').toLowerCase().includes(needle)),
  );
}
