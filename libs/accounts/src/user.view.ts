import type { Role } from './roles.js';
import type { User, UserStatus } from './user.entity.js';

/** A user as the admin API shows it: never a hash. */
export interface UserView {
  id: string;
  username: string;
  email: string;
  displayName: string;
  roles: Role[];
  status: UserStatus;
  /** The partner organisation the person belongs to, if any. */
  organisationId: string | null;
  mustChangePassword: boolean;
  /** The later of the password's and the second factor's lock (either locks the account). */
  lockedUntil: string | null;
  /** Failed sign-ins in a row (what locked the account, when it is locked). */
  failedSignIns: number;
  lastSignInAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toUserView(user: User): UserView {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    displayName: user.displayName,
    roles: [...user.roles],
    status: user.status,
    organisationId: user.organisationId ?? null,
    mustChangePassword: user.mustChangePassword,
    lockedUntil: laterLock(user)?.toISOString() ?? null,
    failedSignIns: user.failedLoginCount,
    lastSignInAt: user.lastSignInAt ? user.lastSignInAt.toISOString() : null,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

/** The later of the two locks a person may have: wrong passwords, wrong second factors. */
export function laterLock(user: Pick<User, 'lockedUntil' | 'secondFactorLockedUntil'>): Date | null {
  const locks = [user.lockedUntil, user.secondFactorLockedUntil].filter((lock): lock is Date => lock !== null);
  return locks.length ? new Date(Math.max(...locks.map((lock) => lock.getTime()))) : null;
}
