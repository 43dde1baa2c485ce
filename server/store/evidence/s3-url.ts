/** Where evidence lives in an S3-compatible bucket: what --evidence s3://… and its options name. */
export interface S3Target {
  bucket: string;
  /** Keys start with it ('' or ending in '/'). */
  prefix: string;
  /** An S3-compatible server (MinIO, R2, s3rver); absent: AWS. */
  endpoint?: string;
  region?: string;
  /** Bucket in the path, not the host name: what MinIO and s3rver need. Default: on when an endpoint is given. */
  forcePathStyle?: boolean;
}

/** `s3://bucket/prefix` as given to --evidence; null when it is not one. */
export function parseS3Url(url: string): { bucket: string; prefix: string } | null {
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url.trim());
  if (!match) return null;
  const rawPrefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (rawPrefix.split('/').some((part) => part === '..' || part === '.')) return null;
  return { bucket: match[1]!, prefix: rawPrefix === '' ? '' : `${rawPrefix}/` };
}
