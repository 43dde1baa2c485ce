/**
 * Turns the bytes of a report file into text. Reports arrive as UTF-8, UTF-8 with a BOM,
 * or UTF-16 with a BOM (what PowerShell's `>` writes); stdout redirected from a run may also
 * carry lines printed before the JSON. Pure: runs in Node and in the browser.
 */

const utf8Decoder = new TextDecoder('utf-8');
const decodeUtf8Default = (bytes: Uint8Array): string => utf8Decoder.decode(bytes);

export interface ReportEncoding {
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be';
  /** Bytes of byte-order mark to skip. */
  bom: number;
}

/** The encoding of a report from its first bytes (4 are enough). */
export function detectReportEncoding(bytes: Uint8Array): ReportEncoding {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le', bom: 2 };
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be', bom: 2 };
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8', bom: 3 };
  // UTF-16 without a BOM: every other byte of ASCII JSON is zero.
  if (bytes.length >= 4 && bytes[0] !== 0 && bytes[1] === 0 && bytes[3] === 0) return { encoding: 'utf-16le', bom: 0 };
  if (bytes.length >= 4 && bytes[0] === 0 && bytes[2] === 0 && bytes[1] !== 0) return { encoding: 'utf-16be', bom: 0 };
  return { encoding: 'utf-8', bom: 0 };
}

/** `decodeUtf8` lets Node pass Buffer's decoder, several times faster than TextDecoder there. */
export function decodeReportBytes(bytes: Uint8Array, decodeUtf8: (bytes: Uint8Array) => string = decodeUtf8Default): string {
  const { encoding, bom } = detectReportEncoding(bytes);
  const body = bytes.subarray(bom);
  return encoding === 'utf-8' ? decodeUtf8(body) : new TextDecoder(encoding).decode(body);
}
