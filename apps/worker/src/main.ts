import 'reflect-metadata';
import { runMain } from '@gatehouse/http';
import { workerRole } from './worker-role.js';

/** The worker as its own process (production: any number of replicas). */
runMain('worker', process.env, (config) => [workerRole(config)]);
