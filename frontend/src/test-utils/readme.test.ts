import readme from '../../README.md?raw';

/**
 * The README's layout names every top-level folder of frontend/ and of src/, so a newcomer who
 * reads it finds each of them, and a new one cannot be added without saying what it is for (as
 * readme_test.go holds the repository's README to the Go packages).
 */
const layout = /## Layout\n[\s\S]*?```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';

/** The folders directly under `base` that hold a file; the keys are paths such as `/src/api/gen/x.ts`. */
function foldersOf(files: Record<string, unknown>, base: string): string[] {
  const names = Object.keys(files)
    .map((path) => path.slice(base.length).split('/'))
    .filter((parts) => parts.length > 1)
    .map((parts) => parts[0]);
  return [...new Set(names)].sort();
}

// Vite lists the files (node_modules aside) from frontend/ (its root, `/`) without importing
// them; what the build and the test runners write is not the project's.
const frontendFolders = foldersOf(
  import.meta.glob(['/*/**', '!/dist/**', '!/test-results/**', '!/playwright-report/**', '!/coverage/**']),
  '/',
);
const srcFolders = foldersOf(import.meta.glob('/src/*/**'), '/src/');

function named(name: string, indent: number): boolean {
  return new RegExp(`^ {${indent}}${name}/`, 'm').test(layout);
}

describe('frontend/README.md', () => {
  it('has a layout', () => {
    expect(layout).toContain('frontend/');
    expect(srcFolders).toContain('features');
    expect(frontendFolders).toContain('src');
  });

  it('names every top-level folder of frontend/', () => {
    expect(frontendFolders.filter((name) => !named(name, 2))).toEqual([]);
  });

  it('names every top-level folder of src/', () => {
    expect(srcFolders.filter((name) => !named(name, 4))).toEqual([]);
  });
});
