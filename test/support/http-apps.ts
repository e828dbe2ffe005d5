/** A port that is free right now, so a test can tell an app its public URL before it listens. */
export { freePort } from '@gatehouse/database';
