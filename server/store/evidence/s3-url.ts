/** `s3://bucket/prefix` as given to --evidence; null when it is not one. */
export function parseS3Url(url: string): { bucket: string; prefix: string } | null {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url.trim());
  if (!match) return null;
  const rawPrefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (rawPrefix.split('/').some((part) => part === '..' || part === '.')) return null;
  return { bucket: match[1]!, prefix: rawPrefix === '' ? '' : `${rawPrefix}/` };
}
