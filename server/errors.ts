/** Errors the routes throw on purpose; the error handler maps them to status codes. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const notFound = (what: string) => new HttpError(404, `${what} not found`);
export const forbidden = (message: string) => new HttpError(403, message);
export const unauthorized = (message = 'Authentication required') => new HttpError(401, message);
