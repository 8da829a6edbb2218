export * from '@testing-library/react';
export { renderWithProviders as render, createTestQueryClient } from './render';
export { server } from './server';
export { aUser, setSupportEmail } from './fixtures';
