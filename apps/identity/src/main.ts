import 'reflect-metadata';
import { runMain } from '@gatehouse/http';
import { identityRole } from './identity-role.js';

/** Runs the identity app alone (production: one process per app, any number of replicas). */
runMain('identity', process.env, (config) => [identityRole(config)]);
