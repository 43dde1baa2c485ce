import { HttpError } from '../errors.js';

/**
 * What JSON.parse will hold in memory for a text, read from the text in one pass before parsing.
 * JSON.parse cannot be stopped once started: a body made of millions of tiny values ("{},"
 * takes 22 bytes of heap per character, a real report under one) runs the writer out of memory,
 * and V8 then ends the whole process, not just the worker (nodejs/node#47224). Upper bounds
 * measured on Node 20: an object or array 70 bytes, a key or array item 40, a character of
 * text 2 (the body itself and the strings made from it).
 */
const PER_CONTAINER = 70;
const PER_ITEM = 40;
const PER_CHAR = 2;

export interface ParseCost {
  bytes: number;
  containers: number;
  items: number;
}

export function parseCost(text: string): ParseCost {
  let containers = 0;
  let items = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // a backslash escapes the next character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) containers++; // { [
    else if (c === 44 || c === 58) items++; // , :
  }
  return { bytes: PER_CONTAINER * containers + PER_ITEM * items + PER_CHAR * text.length, containers, items };
}

const mb = (bytes: number) => Math.ceil(bytes / (1024 * 1024));

/** Refuses (413) a body whose parsed form would not fit in `budgetBytes`, naming both figures. */
export function checkParseCost(text: string, budgetBytes: number, maxUploadBytes: number): void {
  const cost = parseCost(text);
  if (cost.bytes <= budgetBytes) return;
  throw new HttpError(
    413,
    `This upload's JSON would take about ${mb(cost.bytes)} MB of memory to read (${cost.containers} objects and arrays, ${cost.items} keys and items in ${mb(text.length)} MB of text), more than the ${mb(budgetBytes)} MB the server allows for uploads up to ${mb(maxUploadBytes)} MB: nothing was stored. A real report takes a few times its size; if this is one, raise --body-limit.`,
  );
}
