import { setupServer } from 'msw/node';

/**
 * The MSW server every test shares. It starts with no handlers: each test
 * declares the API answers it relies on with server.use(...), and any request
 * nobody declared fails the test that made it (setup.ts, proven by setup.test.ts).
 */
export const server = setupServer();
