import 'reflect-metadata';
import { runMain } from '@gatehouse/http';
import { adminRole } from './admin-role.js';

/** The admin API as its own process (production). It needs an external Postgres. */
runMain('admin', process.env, (config) => [adminRole(config)]);
