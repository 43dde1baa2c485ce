import { MantineProvider } from '@mantine/core';
import { RouterProvider } from 'react-router-dom';
import { router } from './router.js';
import { SessionProvider } from './session/SessionProvider.js';
import { themeStorageManager, useDataThemeAttribute } from './theme/color-scheme.js';
import { theme } from './theme/theme.js';

const colorSchemeManager = themeStorageManager();

function DataTheme() {
  useDataThemeAttribute();
  return null;
}

export function App() {
  return (
    <MantineProvider theme={theme} colorSchemeManager={colorSchemeManager} defaultColorScheme="auto">
      <DataTheme />
      <SessionProvider>
        <RouterProvider router={router} />
      </SessionProvider>
    </MantineProvider>
  );
}
