import { Initial1795379305548 } from './1795379305548-Initial.js';

/** Every migration, in order. Listed explicitly: a glob would load some files twice. */
export const MIGRATIONS = [Initial1795379305548];
