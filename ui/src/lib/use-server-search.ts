import { useEffect, useRef, useState } from 'react';

/** How long typing must pause before the server is asked. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * A search box whose text is sent to the server only once typing pauses: `input` is what the box
 * shows, `search` what was last asked for. `onSearch` runs when `search` changes from typing (a
 * new search starts at its first page); `setBoth` sets both at once, for a deep link.
 */
export function useServerSearch(onSearch: () => void) {
  const [input, setInput] = useState('');
  const [search, setSearch] = useState('');
  // The newest callback, without restarting the pause each time the caller renders.
  const latest = useRef(onSearch);
  useEffect(() => {
    latest.current = onSearch;
  });
  useEffect(() => {
    const wanted = input.trim();
    if (wanted === search) return;
    const timer = setTimeout(() => {
      setSearch(wanted);
      latest.current();
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [input, search]);
  const setBoth = (text: string) => {
    setInput(text);
    setSearch(text);
  };
  return { input, setInput, search, setBoth };
}
