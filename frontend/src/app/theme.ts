import {
  Alert,
  Anchor,
  createTheme,
  localStorageColorSchemeManager,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  virtualColor,
} from '@mantine/core';

/**
 * The coffee palette from the brand guide. Mantine needs ten shades per colour;
 * the named brand values sit at the shades the theme actually uses:
 * shade 7 in the light scheme and shade 4 in the dark one (see primaryShade).
 */
export const palette = {
  light: {
    background: '#FBF6EF', // cream
    surface: '#FFFDF9', // foam
    primary: '#6F4E37', // mocha
    text: '#2B1D14', // espresso
    muted: '#7A6555',
    accent: '#5B8A72', // sage
    warning: '#B5523B', // clay
    warningSurface: '#FBEDE8',
  },
  dark: {
    background: '#1E1510', // espresso
    surface: '#2A1E17', // roast
    primary: '#C8A27A', // latte
    text: '#F3E9DC', // cream
    muted: '#B9A594',
    accent: '#7FB39A',
    warning: '#E08A74',
    warningSurface: '#3A211A',
  },
} as const;

const coffee: MantineColorsTuple = [
  '#F8F0E7',
  '#EEDFCC',
  '#E2CAAE',
  '#D5B592',
  palette.dark.primary, // 4: latte, the dark-scheme primary
  '#AD855F',
  '#8E6A4B',
  palette.light.primary, // 7: mocha, the light-scheme primary
  '#5A3F2C',
  '#443021',
];

const sage: MantineColorsTuple = [
  '#EEF6F1',
  '#D9EBE1',
  '#BCDCCB',
  '#9DCAB3',
  palette.dark.accent,
  '#6FA088',
  '#64947C',
  palette.light.accent,
  '#4A7360',
  '#3A5C4C',
];

const clay: MantineColorsTuple = [
  palette.light.warningSurface,
  '#F6D6CB',
  '#EDB6A5',
  '#E6A08C',
  palette.dark.warning,
  '#D0705A',
  '#C2604A',
  palette.light.warning,
  '#963F2C',
  '#7A3021',
];

// Mantine draws the dark scheme from the `dark` tuple: 0 is text, 2 dimmed
// text, 4 borders, 5-6 raised surfaces and hovers, 7 the page background.
const dark: MantineColorsTuple = [
  palette.dark.text,
  '#E2D3C2',
  palette.dark.muted,
  '#8F7A69',
  '#5E4A3D',
  '#4A382D',
  palette.dark.surface,
  palette.dark.background,
  '#170F0B',
  '#100A07',
];

// Mantine's own green, red and gray show wherever a component is told "green" (success),
// "red" (destructive) or uses gray (borders, hovers, accordions, disabled controls): they are
// replaced by warm tones of the brand, dark enough at the shades in use for AA contrast
// (green and red 7 carry white text at 5.3:1 and 5.6:1).
const green: MantineColorsTuple = [
  '#EEF6F1',
  '#D9EBE1',
  '#BCDCCB',
  '#9DCAB3',
  palette.dark.accent,
  '#6FA088',
  '#557F6A',
  '#4A7360',
  '#3A5C4C',
  '#2C4639',
];

const red: MantineColorsTuple = [
  palette.light.warningSurface,
  '#F6D6CB',
  '#EDB6A5',
  '#E6A08C',
  palette.dark.warning,
  '#D0705A',
  palette.light.warning,
  '#A94A35',
  '#963F2C',
  '#7A3021',
];

const gray: MantineColorsTuple = [
  '#F8F4EE',
  '#F0E9E0',
  '#E4DACE',
  '#D3C6B7',
  '#B9A898',
  '#9A8878',
  '#7A6A5D',
  '#5F5248',
  '#473D35',
  '#2F2823',
];

/** Disabled controls: a warm surface, and a label that still reads (AA) where it carries meaning. */
const disabled = {
  light: { background: '#EFE5D8', color: '#6B5A4C', border: '#E4DACE' },
  dark: { background: '#3A2C23', color: palette.dark.muted, border: '#4A382D' },
} as const;

export const theme = createTheme({
  primaryColor: 'coffee',
  primaryShade: { light: 7, dark: 4 },
  // The colours components use ('coffee', 'sage', 'clay') are virtual: Mantine
  // resolves them per scheme, which is what lets autoContrast pick espresso
  // text on latte buttons in the dark scheme and white text on mocha in the
  // light one (with plain tuples it judges both schemes by the light shade).
  colors: {
    coffeeTones: coffee,
    sageTones: sage,
    clayTones: clay,
    coffee: virtualColor({ name: 'coffee', light: 'coffeeTones', dark: 'coffeeTones' }),
    sage: virtualColor({ name: 'sage', light: 'sageTones', dark: 'sageTones' }),
    clay: virtualColor({ name: 'clay', light: 'clayTones', dark: 'clayTones' }),
    // Virtual for the same reason: a filled red (destructive) or green button picks its
    // label's colour from the shade it is drawn in, in each scheme.
    greenTones: green,
    redTones: red,
    green: virtualColor({ name: 'green', light: 'greenTones', dark: 'greenTones' }),
    red: virtualColor({ name: 'red', light: 'redTones', dark: 'redTones' }),
    gray,
    dark,
  },
  autoContrast: true,
  luminanceThreshold: 0.3,
  black: palette.light.text,
  white: palette.light.surface,
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  headings: {
    fontFamily: 'Fraunces, Georgia, "Times New Roman", serif',
    fontWeight: '600',
    sizes: {
      h1: { fontSize: '2.5rem', lineHeight: '1.2' },
      h2: { fontSize: '2rem', lineHeight: '1.25' },
      h3: { fontSize: '1.5rem', lineHeight: '1.3' },
      h4: { fontSize: '1.25rem', lineHeight: '1.35' },
    },
  },
  // Readable by default: 'sm' (the default size of most inputs and buttons)
  // is 16px, body text ('md') is 17px; only 'xs' captions go below 16px.
  fontSizes: {
    xs: '0.875rem',
    sm: '1rem',
    md: '1.0625rem',
    lg: '1.1875rem',
    xl: '1.375rem',
  },
  lineHeights: {
    xs: '1.45',
    sm: '1.5',
    md: '1.6',
    lg: '1.6',
    xl: '1.6',
  },
  defaultRadius: 'md',
  // Links inside text are underlined, so they do not rely on colour alone (WCAG 1.4.1).
  components: {
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    // Every Alert without a colour of its own speaks in the brand, not Mantine's blue.
    Alert: Alert.extend({ defaultProps: { color: 'coffee' } }),
    // A dialog's close (×) button has a name for screen readers. A plain object rather than
    // Modal.extend: importing Modal here would put it in the landing page's JavaScript.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // Tooltips open for a mouse's hover and for keyboard focus (only focus the browser shows, so
    // not after a tap), never for touch: a tapped control's tooltip would otherwise stay on the
    // screen until the next tap elsewhere (issue 36). What a tooltip says is also the control's name.
    Tooltip: { defaultProps: { events: { hover: true, focus: true, touch: false } } },
  },
  cursorType: 'pointer',
  respectReducedMotion: true,
});

/** Page, surface and text colours per scheme, beyond what the tuples give. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-body': palette.light.background,
    '--mantine-color-text': palette.light.text,
    '--mantine-color-dimmed': palette.light.muted,
    '--mantine-color-default': palette.light.surface,
    '--mantine-color-anchor': palette.light.primary,
    '--mantine-color-success': palette.light.accent,
    '--mantine-color-error': palette.light.warning,
    '--percolate-color-surface': palette.light.surface,
    '--percolate-color-warning-surface': palette.light.warningSurface,
    // Placeholders read at AA (4.5:1 and more) on inputs; axe does not check them.
    '--mantine-color-placeholder': palette.light.muted,
    '--mantine-color-disabled': disabled.light.background,
    '--mantine-color-disabled-color': disabled.light.color,
    '--mantine-color-disabled-border': disabled.light.border,
  },
  dark: {
    '--mantine-color-body': palette.dark.background,
    '--mantine-color-text': palette.dark.text,
    '--mantine-color-dimmed': palette.dark.muted,
    '--mantine-color-default': palette.dark.surface,
    '--mantine-color-anchor': palette.dark.primary,
    '--mantine-color-success': palette.dark.accent,
    '--mantine-color-error': palette.dark.warning,
    '--percolate-color-surface': palette.dark.surface,
    '--percolate-color-warning-surface': palette.dark.warningSurface,
    // Placeholders read at AA (4.5:1 and more) on inputs; axe does not check them.
    '--mantine-color-placeholder': palette.dark.muted,
    '--mantine-color-disabled': disabled.dark.background,
    '--mantine-color-disabled-color': disabled.dark.color,
    '--mantine-color-disabled-border': disabled.dark.border,
  },
});

export const COLOR_SCHEME_STORAGE_KEY = 'percolate-color-scheme';

/** Remembers the reader's light/dark choice; 'auto' follows the system. */
export const colorSchemeManager = localStorageColorSchemeManager({
  key: COLOR_SCHEME_STORAGE_KEY,
});
