import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type Actor, AuditService, SYSTEM_ACTOR } from '@gatehouse/audit';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { SecretHasher, generateOpaqueSecret } from '@gatehouse/crypto';
import { type Page, type PageRequest, type SortableRange, type TextSort, type TwoWayPage, type TwoWayRequest, oneWay, sortablePage } from '@gatehouse/database';
import { MailOutbox, accessRequestConfirmEmail, linkFrom } from '@gatehouse/mail';
import { TenantService } from '@gatehouse/tenants';
import type { AccessRequest, AccessRequestStatus } from './access-request.entity.js';
import { AccessRequestError, AccessRequestErrorCode, invalidRequest } from './access-request.errors.js';
import { AccessRequestNotifier, whatOf } from './access-request.notifier.js';
import { recordRequestEvent } from './access-request.audit.js';
import { AccessRequestRepository, REQUEST_SORT_COLUMNS, type RequestSort } from './access-request.repository.js';
import { type AccessRequestInput, checkAccessRequest, normalizeAccessRequest } from './access-request.rules.js';
import { type AccessRequestView, effectiveRequestStatus, toAccessRequestView } from './access-request.view.js';

/** Unconfirmed requests expire after this (the confirmation link's life). */
export const CONFIRMATION_HOURS = 24;
/** Open requests (unconfirmed or waiting for a decision) one address may have at once. */
export const MAX_OPEN_REQUESTS_PER_ADDRESS = 3;
/** Public requests one source address may make per window. */
export const SOURCE_REQUEST_LIMIT = 10;
export const SOURCE_WINDOW_SECONDS = 60 * 60;
/** How long the very same public request, still unconfirmed, counts as sent already. */
const REPEAT_WINDOW_SECONDS = 30 * 60;

/** What the list of requests shows: those in a state, matching a search, in an order. */
export interface AccessRequestFilter extends PageRequest {
  status?: AccessRequestStatus;
  search?: string;
  sort?: TextSort;
}

export type PublicSubmission = { accepted: true } | { accepted: false; retryAfterSeconds: number };

export interface PublicSubmissionContext {
  /** The client address (`X-Forwarded-For` only from `TRUST_PROXY`); counts against the per-source limit. */
  source?: string;
  /** The form's honeypot field was filled in: answered like any request, nothing is stored. */
  honeypot?: boolean;
}

export interface ConfirmationLookup {
  status: 'valid' | 'confirmed' | 'expired';
  requesterName: string;
  what: string;
  expiresAt: Date;
  /** The request as typed, label by label (for the page to quote as the requester's words). */
  typed: Array<[string, string]>;
}

/** Access requests: the public form and its confirmation, staff filing, the queue. */
/** Nobody is signed in on the public pages: the system acts, and the event keeps the address the person came from. */
const fromAddress = (source: string | null): Actor =>
  source ? { ...SYSTEM_ACTOR, sourceAddress: source } : SYSTEM_ACTOR;

@Injectable()
export class AccessRequestService {
  private readonly logger = new Logger(AccessRequestService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly requests: AccessRequestRepository,
    private readonly notifier: AccessRequestNotifier,
    private readonly tenants: TenantService,
    private readonly outbox: MailOutbox,
    private readonly hasher: SecretHasher,
    private readonly audit: AuditService,
  ) {}

  /**
   * A request from the public form. The answer is the same whether the address is new, known, or
   * already has {@link MAX_OPEN_REQUESTS_PER_ADDRESS} open requests (then nothing is stored or
   * mailed and the refusal is audited): the form never tells who is known. The very same request
   * sent again within {@link REPEAT_WINDOW_SECONDS}, still unconfirmed, acts once: nothing more is
   * stored or mailed.
   */
  async submitPublic(
    tenantId: string,
    input: AccessRequestInput,
    context: PublicSubmissionContext,
  ): Promise<PublicSubmission> {
    const problems = checkAccessRequest(input);
    if (problems.length) throw invalidRequest(problems);
    if (context.source) {
      const counted = await this.requests.countSource(
        tenantId,
        context.source,
        SOURCE_WINDOW_SECONDS,
        SOURCE_REQUEST_LIMIT,
      );
      if (counted.failures > SOURCE_REQUEST_LIMIT)
        return { accepted: false, retryAfterSeconds: secondsUntil(counted.blockedUntil) };
    }
    if (context.honeypot) {
      this.logger.warn(
        `access request honeypot filled tenant=${tenantId} source=${context.source?.slice(0, 64) ?? '-'}`,
      );
      return { accepted: true };
    }
    await this.storePublic(tenantId, normalizeAccessRequest(input), context.source ?? null);
    return { accepted: true };
  }

  /** Staff file a request for someone: it starts `submitted` and the contact persons are told. */
  file(tenantId: string, actor: Actor, input: AccessRequestInput): Promise<AccessRequestView> {
    const problems = checkAccessRequest(input);
    if (problems.length) throw invalidRequest(problems);
    const clean = normalizeAccessRequest(input);
    return this.dataSource.transaction(async (em) => {
      const request = await this.requests.insert(em, {
        ...columnsOf(tenantId, clean),
        status: 'submitted',
        origin: 'staff',
        filedByUserId: actor.userId,
      });
      await recordRequestEvent(this.audit, em, actor, 'access_request.created', request, {
        origin: 'staff',
        what: whatOf(request),
      });
      await this.notifier.submitted(em, request, actor);
      return toAccessRequestView((await this.requests.findById(tenantId, request.id, em))!);
    });
  }

  /** What a confirmation link stands for (the GET of its page: consumes nothing). */
  async lookupConfirmation(tenantId: string, token: string): Promise<ConfirmationLookup> {
    const request = await this.requests.findByConfirmToken(tenantId, this.hasher.hash(token));
    if (!request?.confirmExpiresAt) throw linkNotFound();
    const status = effectiveRequestStatus(request);
    return {
      status: status === 'unverified' ? 'valid' : status === 'expired' ? 'expired' : 'confirmed',
      requesterName: request.requesterName,
      what: whatOf(request),
      expiresAt: request.confirmExpiresAt,
      typed: typedFields(request),
    };
  }

  /** Confirms the address once: the request becomes `submitted` and every contact person is told. */
  confirm(tenantId: string, token: string, source: string | null = null): Promise<void> {
    const tokenHash = this.hasher.hash(token);
    return this.dataSource.transaction(async (em) => {
      const id = await this.requests.confirm(em, tenantId, tokenHash);
      if (!id) throw await this.whyNotConfirmed(em, tenantId, tokenHash);
      const request = (await this.requests.findById(tenantId, id, em))!;
      await recordRequestEvent(this.audit, em, fromAddress(source), 'access_request.confirmed', request, {
        requesterEmail: request.requesterEmail,
      });
      await this.notifier.submitted(em, request, null);
    });
  }

  /** Oldest first (or sorted by requester or organisation). */
  async list(tenantId: string, filter: AccessRequestFilter): Promise<Page<AccessRequestView>> {
    return oneWay(await this.browse(tenantId, { ...filter, before: undefined }));
  }

  /** {@link list} both ways: `before` (a page's `prevCursor`) walks towards the start of the order. */
  browse(tenantId: string, filter: AccessRequestFilter & TwoWayRequest): Promise<TwoWayPage<AccessRequestView>> {
    const sort = filter.sort && filter.sort.by in REQUEST_SORT_COLUMNS ? filter.sort : undefined;
    const query = { status: filter.status, search: filter.search?.trim() || undefined };
    const list = {
      rows: (range: SortableRange) => this.requests.page(tenantId, { ...query, ...range }),
      at: (r: AccessRequest) => ({ at: r.createdAt, id: r.id }),
      key: (r: AccessRequest, by: TextSort) => ((by.by as RequestSort) === 'organisation' ? r.organisation : r.requesterName),
    };
    return sortablePage(filter, sort, list, toAccessRequestView);
  }

  /** The access request whose approval created the API client (by its object id), if one did. */
  async findByClient(tenantId: string, apiClientId: string): Promise<AccessRequestView | null> {
    const request = await this.requests.findByClient(tenantId, apiClientId);
    return request ? toAccessRequestView(request) : null;
  }

  async get(tenantId: string, id: string): Promise<AccessRequestView> {
    const request = await this.requests.findById(tenantId, id);
    if (!request) throw new AccessRequestError(AccessRequestErrorCode.NotFound, 'No such access request.');
    return toAccessRequestView(request);
  }

  /** Under a lock on the address: a new unverified request, or (at the limit) only an audit event. */
  private storePublic(tenantId: string, input: AccessRequestInput, source: string | null): Promise<void> {
    return this.dataSource.transaction(async (em) => {
      const address = input.requesterEmail.toLowerCase();
      await this.requests.lockAddress(em, tenantId, address);
      // The same form sent again (a double click, a reload, Back and send): its mail is on its way.
      if (await this.requests.hasRecentSame(em, columnsOf(tenantId, input), REPEAT_WINDOW_SECONDS)) return;
      if ((await this.requests.countOpen(em, tenantId, address)) < MAX_OPEN_REQUESTS_PER_ADDRESS) {
        return this.createUnverified(em, tenantId, input, source);
      }
      await this.audit.record(em, {
        tenantId,
        actor: fromAddress(source),
        action: 'access_request.refused',
        targetType: 'access_request',
        targetId: null,
        details: { reason: 'open_request_limit', requesterEmail: input.requesterEmail, sourceAddress: source },
      });
    });
  }

  private async createUnverified(
    em: EntityManager,
    tenantId: string,
    input: AccessRequestInput,
    source: string | null,
  ) {
    const token = generateOpaqueSecret();
    const request = await this.requests.insert(em, {
      ...columnsOf(tenantId, input),
      status: 'unverified',
      origin: 'web',
      sourceAddress: source,
      confirmTokenHash: this.hasher.hash(token),
      confirmExpiresAt: new Date(Date.now() + CONFIRMATION_HOURS * 3_600_000),
    });
    const tenant = await this.tenants.getById(tenantId, em);
    const mail = accessRequestConfirmEmail({
      tenantName: tenant.displayName,
      account: request.wantsAccount,
      api: request.wantsApi,
      link: linkFrom(this.config.publicUrl, 'request-access/confirm', token),
      expiresAt: request.confirmExpiresAt!,
    });
    await this.outbox.enqueue(em, { tenantId, to: request.requesterEmail, mail });
    await recordRequestEvent(this.audit, em, fromAddress(source), 'access_request.created', request, {
      origin: 'web',
      what: whatOf(request),
      sourceAddress: source,
    });
  }

  private async whyNotConfirmed(em: EntityManager, tenantId: string, tokenHash: Buffer): Promise<AccessRequestError> {
    const request = await this.requests.findByConfirmToken(tenantId, tokenHash, em);
    if (!request) return linkNotFound();
    if (effectiveRequestStatus(request) === 'expired') {
      return new AccessRequestError(AccessRequestErrorCode.LinkExpired, 'This confirmation link has expired.');
    }
    return new AccessRequestError(AccessRequestErrorCode.AlreadyConfirmed, 'This request has already been confirmed.');
  }
}

function columnsOf(tenantId: string, input: AccessRequestInput): Partial<AccessRequest> {
  return {
    tenantId,
    requesterName: input.requesterName,
    requesterEmail: input.requesterEmail,
    requesterEmailNormalized: input.requesterEmail.toLowerCase(),
    organisation: input.organisation,
    wantsAccount: Boolean(input.account),
    documentationWanted: input.account?.documentation ?? null,
    accountReason: input.account?.reason ?? null,
    wantsApi: Boolean(input.api),
    systemName: input.api?.systemName ?? null,
    technicalContactEmail: input.api?.technicalContactEmail ?? null,
    apiPurpose: input.api?.purpose ?? null,
  };
}

function secondsUntil(until: Date | null): number {
  return until ? Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000)) : SOURCE_WINDOW_SECONDS;
}

function linkNotFound(): AccessRequestError {
  return new AccessRequestError(AccessRequestErrorCode.LinkNotFound, 'No such confirmation link.');
}

/** What the requester typed into the public form, label by label, the empty fields left out. */
function typedFields(request: AccessRequest): Array<[string, string]> {
  const fields: Array<[string, string | null]> = [
    ['Name', request.requesterName],
    ['Organisation', request.organisation],
    ['Documentation wanted', request.documentationWanted],
    ['Why', request.accountReason],
    ['System', request.systemName],
    ['Technical contact', request.technicalContactEmail],
    ['What the system must do', request.apiPurpose],
  ];
  return fields.filter((field): field is [string, string] => Boolean(field[1]));
}
