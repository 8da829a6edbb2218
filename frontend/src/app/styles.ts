/**
 * Mantine styles for the first page: the landing page, the public layout and the page
 * loader. The rest of Mantine's component styles are in ./styles.more.ts, which every other
 * route loads with its page (see AppRoutes), so a first visit to / downloads only these.
 *
 * Mantine's layered files (*.layer.css) put all of its rules in the `mantine` cascade layer.
 * The app's own CSS modules are not layered, so they win over Mantine whatever order the
 * lazily loaded style sheets arrive in.
 *
 * Order still matters inside the layer: baseline, the default variables and global styles
 * first, then the building blocks other components are made of, then the components. When a
 * screen starts using a new Mantine component, add its file (and those of the components it
 * is built from; the Mantine "CSS files list" page names them) here if the landing page uses
 * it, otherwise in ./styles.more.ts.
 */
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';

// Building blocks reused inside other components.
import '@mantine/core/styles/UnstyledButton.layer.css';
import '@mantine/core/styles/VisuallyHidden.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Group.layer.css';
import '@mantine/core/styles/Stack.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/Center.layer.css';

// Text before Anchor, which is built on it (otherwise Text's text-decoration wins).
import '@mantine/core/styles/Text.layer.css';

// Components of the public layout and the landing page.
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Burger.layer.css';
import '@mantine/core/styles/Button.layer.css';
import '@mantine/core/styles/Card.layer.css';
import '@mantine/core/styles/Container.layer.css';
import '@mantine/core/styles/ThemeIcon.layer.css';
import '@mantine/core/styles/Title.layer.css';

// Self-hosted fonts (no CDN): Inter for text, Fraunces for headings.
import '@fontsource/inter/400.css';
import '@fontsource/inter/500.css';
import '@fontsource/inter/600.css';
import '@fontsource/fraunces/500.css';
import '@fontsource/fraunces/600.css';

import './global.css';
