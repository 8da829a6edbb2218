import { defineConfig } from 'orval';

/**
 * openapi.yaml (repo root) → typed React Query hooks, models and MSW handlers
 * in src/api/gen. Generated files are committed and never edited by hand:
 * change the contract and run `npm run generate` (or `make generate`).
 */
export default defineConfig({
  percolate: {
    input: {
      target: '../openapi.yaml',
    },
    output: {
      target: './src/api/gen/endpoints.ts',
      schemas: './src/api/gen/model',
      mode: 'tags-split',
      client: 'react-query',
      httpClient: 'fetch',
      // Paths in the contract already start with /api, and the SPA talks to
      // its own origin, so URLs stay relative (no base URL).
      baseUrl: '',
      clean: true,
      prettier: false,
      mock: {
        type: 'msw',
        delay: false,
        useExamples: true,
      },
      override: {
        mutator: {
          path: './src/api/mutator.ts',
          name: 'customFetch',
        },
        fetch: {
          includeHttpResponseReturnType: false,
        },
        query: {
          useQuery: true,
          useMutation: true,
          signal: true,
        },
        operations: {
          // Reads a sign-in link's account without using it: a query (cached per token,
          // never retried by a click), although it is a POST so the token stays out of URLs.
          lookUpLoginLink: {
            query: { useQuery: true, useMutation: false, signal: true },
          },
        },
      },
    },
  },
  // The contract as zod schemas, for the field limits it exports as constants
  // (e.g. sendContactMessageBodyNameMax): the client reads each limit from here.
  // Generated after `percolate`, whose clean step empties src/api/gen.
  percolateZod: {
    input: { target: '../openapi.yaml' },
    output: {
      target: './src/api/gen/zod/schemas.ts',
      client: 'zod',
      mode: 'single',
      prettier: false,
    },
  },
});
