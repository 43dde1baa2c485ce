/**
 * Mantine's yellow is a fill colour: as text on a light background it is hard to read. Text in
 * a rule's colour goes through this, which darkens yellow in the light theme and leaves the rest.
 */
export function readableTextColor(color: string | undefined): string | undefined {
  return color === 'yellow' ? 'light-dark(var(--mantine-color-yellow-9), var(--mantine-color-yellow-5))' : color;
}
