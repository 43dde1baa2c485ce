/**
 * Turns the bytes of a report file into text. Reports arrive as UTF-8, UTF-8 with a BOM,
 * or UTF-16 with a BOM (what PowerShell's `>` writes); stdout redirected from a run may also
 * carry lines printed before the JSON. Pure: runs in Node and in the browser.
 */

const utf8Decoder = new TextDecoder('utf-8');
const decodeUtf8Default = (bytes: Uint8Array): string => utf8Decoder.decode(bytes);

/** `decodeUtf8` lets Node pass Buffer's decoder, several times faster than TextDecoder there. */
export function decodeReportBytes(bytes: Uint8Array, decodeUtf8: (bytes: Uint8Array) => string = decodeUtf8Default): string {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  }
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return decodeUtf8(bytes.subarray(3));
  }
  // UTF-16 without a BOM: every other byte of ASCII JSON is zero.
  if (bytes.length >= 4 && bytes[0] !== 0 && bytes[1] === 0 && bytes[3] === 0) {
    return new TextDecoder('utf-16le').decode(bytes);
  }
  if (bytes.length >= 4 && bytes[0] === 0 && bytes[2] === 0 && bytes[1] !== 0) {
    return new TextDecoder('utf-16be').decode(bytes);
  }
  return decodeUtf8(bytes);
}
