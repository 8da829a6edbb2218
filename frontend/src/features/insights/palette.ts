/**
 * The Okabe–Ito palette, which stays distinguishable with every common kind of colour
 * blindness (black left out: it vanishes on the dark theme). The last slot, a neutral grey,
 * holds every feeling past the seventh.
 */
export const OKABE_ITO = ['#E69F00', '#56B4E9', '#009E73', '#F0E442', '#0072B2', '#D55E00', '#CC79A7'] as const;
export const OTHER_COLOR = '#9A9A9A';
