import { Injectable } from '@nestjs/common';
import { roleNames } from '@gatehouse/accounts';
import { WorkQueueService } from '@gatehouse/workqueues';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleView } from '../frame/console-responder.js';
import { overviewPage } from './overview.pages.js';

/** The work waiting for this person, and the tenant's latest activity for those who read the audit log. */
@Injectable()
export class OverviewPresenter {
  constructor(private readonly queues: WorkQueueService) {}

  async show(who: ConsolePrincipal): Promise<ConsoleView> {
    const [queues, events] = await Promise.all([
      this.queues.for(who.tenantId, who),
      this.queues.recentEvents(who.tenantId, who),
    ]);
    return {
      title: 'Overview',
      lead: `Signed in to ${who.tenant.displayName} as ${roleNames(who.roles)}.`,
      body: overviewPage({ base: who.base, queues, events }),
    };
  }
}
