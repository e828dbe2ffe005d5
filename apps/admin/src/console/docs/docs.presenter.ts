import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { UserService } from '@gatehouse/accounts';
import { DocError, DocErrorCode, DocService } from '@gatehouse/docs';
import { InvitationService } from '@gatehouse/invitations';
import { type FieldErrors, html } from '@gatehouse/views';
import { CreateDocSectionDto, UpdateDocSectionDto } from '../../dto/docs.dto.js';
import { field, formErrors, queryField } from '../frame/console-forms.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleResult, ConsoleView } from '../frame/console-responder.js';
import { type SectionForm, deleteConfirmation, readersPanel, sectionEditor, sectionList } from './docs.pages.js';

const isPreview = (req: Request) => field(req, 'intent') === 'preview';
const hasErrors = (errors: FieldErrors) => Object.keys(errors).length > 0;

/**
 * The Documentation page group (`Docs.Manage`): sections with a Markdown editor and a sanitized
 * preview, who can read each, deleting one. The same `DocService` calls as `/admin/v1/doc-sections`.
 */
@Injectable()
export class DocsPresenter {
  constructor(
    private readonly docs: DocService,
    private readonly invitations: InvitationService,
    private readonly users: UserService,
  ) {}

  async list(who: ConsolePrincipal, req: Request): Promise<ConsoleView> {
    const page = await this.docs.list(who.tenantId, { cursor: queryField(req, 'cursor') || undefined });
    return {
      title: 'Documentation',
      lead: 'Private documentation, opened to people section by section through invitations.',
      action: html`<a class="button" href="${who.base}/docs/new">New section</a>`,
      body: sectionList(who.base, page.items, page.nextCursor),
    };
  }

  showNew(who: ConsolePrincipal, values: SectionForm = {}, errors: FieldErrors = {}, showPreview = false): ConsoleView {
    return {
      title: 'New section',
      breadcrumbs: [{ label: 'Documentation', href: `${who.base}/docs` }, { label: 'New section' }],
      body: sectionEditor({
        action: `${who.base}/docs/new`,
        csrf: who.csrfToken,
        submit: 'Create section',
        cancel: `${who.base}/docs`,
        values,
        errors,
        isNew: true,
        showPreview,
      }),
      status: hasErrors(errors) ? 400 : 200,
    };
  }

  async create(who: ConsolePrincipal, req: Request): Promise<ConsoleResult> {
    const values = { slug: field(req, 'slug').trim(), title: field(req, 'title').trim(), body: field(req, 'body') };
    if (isPreview(req)) return this.showNew(who, values, {}, true);
    const errors = await formErrors(CreateDocSectionDto, values);
    if (hasErrors(errors)) return this.showNew(who, values, errors);
    try {
      const section = await this.docs.create(who.tenantId, who, values);
      const text = `Section "${section.title}" created. Invite people to it from their user page.`;
      return { redirect: `${who.base}/docs/${section.slug}`, flash: { kind: 'success', text } };
    } catch (error) {
      if (error instanceof DocError && error.code === DocErrorCode.SlugTaken) {
        return { ...this.showNew(who, values, { slug: `${error.message} Choose another slug.` }), status: 409 };
      }
      throw error;
    }
  }

  async section(who: ConsolePrincipal, slug: string, typed?: SectionForm, errors: FieldErrors = {}, showPreview = false): Promise<ConsoleView> {
    const section = await this.docs.get(who.tenantId, slug);
    const [readers, pending] = await Promise.all([
      this.docs.readers(who.tenantId, slug),
      this.invitations.list(who.tenantId, { status: 'pending', section: slug, limit: 50 }),
    ]);
    const invitations = await Promise.all(
      pending.items.map(async (i) => ({ ...i, name: (await this.users.get(who.tenantId, i.userId)).displayName })),
    );
    const values = typed ?? { title: section.title, body: section.body };
    return {
      title: section.title,
      breadcrumbs: [{ label: 'Documentation', href: `${who.base}/docs` }, { label: section.title }],
      action: html`<a class="button secondary" href="${who.base}/docs/${slug}/delete">Delete…</a>`,
      lead: html`Slug <code>${slug}</code>. Readers see it at <code>/docs/${slug}</code> once it is open to them.`,
      body: html`${sectionEditor({
        action: `${who.base}/docs/${slug}`,
        csrf: who.csrfToken,
        submit: 'Save changes',
        cancel: `${who.base}/docs`,
        values,
        errors,
        isNew: false,
        showPreview,
      })}
      ${readersPanel({ readers, invitations })}`,
      status: hasErrors(errors) ? 400 : 200,
    };
  }

  async update(who: ConsolePrincipal, slug: string, req: Request): Promise<ConsoleResult> {
    const values = { title: field(req, 'title').trim(), body: field(req, 'body') };
    if (isPreview(req)) return this.section(who, slug, values, {}, true);
    const errors = await formErrors(UpdateDocSectionDto, values);
    if (hasErrors(errors)) return this.section(who, slug, values, errors);
    const section = await this.docs.update(who.tenantId, who, slug, values);
    return { redirect: `${who.base}/docs/${slug}`, flash: { kind: 'success', text: `Section "${section.title}" saved.` } };
  }

  async confirmDelete(who: ConsolePrincipal, slug: string): Promise<ConsoleView> {
    const section = await this.docs.get(who.tenantId, slug);
    const readers = await this.docs.readers(who.tenantId, slug);
    return {
      title: 'Delete the section?',
      breadcrumbs: [
        { label: 'Documentation', href: `${who.base}/docs` },
        { label: section.title, href: `${who.base}/docs/${slug}` },
        { label: 'Delete' },
      ],
      body: deleteConfirmation({ base: who.base, csrf: who.csrfToken, section, readers: readers.length }),
    };
  }

  async remove(who: ConsolePrincipal, slug: string): Promise<ConsoleResult> {
    const section = await this.docs.get(who.tenantId, slug);
    await this.docs.remove(who.tenantId, who, slug);
    return { redirect: `${who.base}/docs`, flash: { kind: 'success', text: `Section "${section.title}" deleted.` } };
  }
}
