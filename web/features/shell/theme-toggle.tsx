import { useEffect, useState } from 'react';
import { faCircleHalfStroke, faMoon, faSun } from '@fortawesome/free-solid-svg-icons';
import { IconButton } from '../../ui/button.tsx';

type Theme = 'light' | 'dark' | 'system';
const KEY = 'quire-theme';
const ICONS = { light: faSun, dark: faMoon, system: faCircleHalfStroke } as const;

/** Light, dark or the system's: the reader's stylesheet (and with it every token) follows `data-theme` on <html>. */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(() => (localStorage.getItem(KEY) as Theme | null) ?? 'system');
  useEffect(() => {
    if (theme === 'system') document.documentElement.removeAttribute('data-theme');
    else document.documentElement.setAttribute('data-theme', theme);
    localStorage.setItem(KEY, theme);
  }, [theme]);
  const next: Theme = theme === 'system' ? 'dark' : theme === 'dark' ? 'light' : 'system';
  return <IconButton icon={ICONS[theme]} label={`Theme: ${theme}. Switch to ${next}`} className="theme-button" onClick={() => setTheme(next)} />;
}
