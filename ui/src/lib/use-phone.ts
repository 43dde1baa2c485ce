import { useMediaQuery } from '@mantine/hooks';

/** The width below which a wide table stacks each row: a 390 px phone showed two columns of nine. */
export const PHONE_QUERY = '(max-width: 36em)';

/** True on a phone-wide screen; read during the first render, so a table never paints its other layout first. */
export function usePhone(): boolean {
  return useMediaQuery(PHONE_QUERY, undefined, { getInitialValueInEffect: false }) ?? false;
}
