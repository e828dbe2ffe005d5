import type { Command } from './command.js';

/** `demo`: the default tenant filled for a first look at the console, then every app started. */
export const demoCommand: Command = {
  summary:
    'fill tenant "default" of an empty database with demo data (a partner, an API, requests, clients, one staff member per role), print whom to sign in as, and start like `start`; an already filled demo only prints the sign-ins, any other database is refused',
  usage: '[--fill-only]',
  options: { 'fill-only': { type: 'boolean', default: false } },
  run: async (input) => (input.config(), (await import('./demo.run.js')).demo(input)),
};
