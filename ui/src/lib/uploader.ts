/**
 * Who stored a run, as the review list and recent uploads say it: the signed-in user, the user
 * an API token acts as with the token's name, or what stored it from the command line
 * ('reporter on HOST', 'import on HOST'). Null when nothing is known (runs stored before this
 * was recorded).
 */
export function uploaderOf(upload: { uploaded_by_username: string | null; uploaded_via: string | null }): string | null {
  const user = upload.uploaded_by_username?.trim() || null;
  const via = upload.uploaded_via?.trim() || null;
  if (user && via) return `${user} via ${via}`;
  return user ?? via;
}
