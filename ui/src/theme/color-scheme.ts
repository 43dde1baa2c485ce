import { useComputedColorScheme, useMantineColorScheme, type MantineColorSchemeManager } from '@mantine/core';
import { useEffect } from 'react';

/** docs/screens.md#session-theme-and-events: the theme lives under `theme` as 'dark' or 'light'; nothing stored means "follow the system". */
export const THEME_KEY = 'theme';

export function themeStorageManager(): MantineColorSchemeManager {
  let onStorage: ((event: StorageEvent) => void) | null = null;
  return {
    get: (defaultValue) => {
      const stored = localStorage.getItem(THEME_KEY);
      return stored === 'dark' || stored === 'light' ? stored : defaultValue;
    },
    set: (value) => {
      if (value === 'auto') localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, value);
    },
    // Another tab toggling the theme changes this one too.
    subscribe: (onUpdate) => {
      onStorage = (event) => {
        if (event.key !== THEME_KEY) return;
        onUpdate(event.newValue === 'dark' || event.newValue === 'light' ? event.newValue : 'auto');
      };
      window.addEventListener('storage', onStorage);
    },
    unsubscribe: () => {
      if (onStorage) window.removeEventListener('storage', onStorage);
    },
    clear: () => localStorage.removeItem(THEME_KEY),
  };
}

/** The resolved theme ('auto' follows the system preference) and a toggle that stores its choice. */
export function useTheme(): { theme: 'dark' | 'light'; toggle(): void } {
  const { setColorScheme } = useMantineColorScheme();
  const theme = useComputedColorScheme('light', { getInitialValueInEffect: false });
  return { theme, toggle: () => setColorScheme(theme === 'dark' ? 'light' : 'dark') };
}

/** Mirrors the resolved theme into `data-theme` on the document root (docs/screens.md#session-theme-and-events). */
export function useDataThemeAttribute(): void {
  const { theme } = useTheme();
  useEffect(() => {
    document.documentElement.setAttribute('data-theme', theme);
  }, [theme]);
}
