/**
 * A badge that keeps its whole label however narrow the row: Mantine's badge is as wide as the
 * room it is given, and beside long text in a narrow row it squeezed to a dot. An outlandish label
 * still ends in '…' rather than push the row wider than its card.
 */
export const WHOLE_BADGE = { flexShrink: 0, width: 'max-content', maxWidth: 'min(14rem, 100%)' } as const;
