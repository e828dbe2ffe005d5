import type { DocSectionView, SectionReader } from '@gatehouse/docs';
import type { InvitationView } from '@gatehouse/invitations';
import {
  type FieldErrors,
  type SafeHtml,
  badge,
  formError,
  html,
  inputField,
  postForm,
  renderSection,
  table,
  textareaField,
  expiryTag,
  timeTag,
} from '@gatehouse/views';

/** The editor's fields as typed (kept when the form comes back with an error or a preview). */
export interface SectionForm {
  slug?: string;
  title?: string;
  body?: string;
}

export function sectionList(base: string, sections: readonly DocSectionView[], more: string | null): SafeHtml {
  return html`${table({
    caption: 'Documentation sections',
    columns: [
      { header: 'Title', cell: (s: DocSectionView) => html`<a href="${base}/docs/${s.slug}">${s.title}</a>` },
      { header: 'Slug', cell: (s: DocSectionView) => html`<code>${s.slug}</code>` },
      { header: 'Last changed', cell: (s: DocSectionView) => timeTag(new Date(s.updatedAt)) },
    ],
    rows: sections,
    empty: 'No sections yet. Create one with "New section", then invite people to read it.',
  })}
  ${more ? html`<nav class="pager" aria-label="Pages"><span></span><a href="${base}/docs?cursor=${more}" rel="next">More sections →</a></nav>` : ''}`;
}

function preview(values: SectionForm): SafeHtml {
  return html`<section class="panel preview" aria-labelledby="preview-heading">
    <h2 id="preview-heading">Preview</h2>
    <p class="hint">As readers will see it. Nothing is saved until you press the save button.</p>
    <article>${renderSection(values.body ?? '', values.title ?? '')}</article>
  </section>`;
}

/**
 * The Markdown editor: the slug (new sections only), the title and the body, a "Preview" button
 * that shows the sanitized rendering beside the form (no JavaScript), and the save button.
 */
export function sectionEditor(input: {
  action: string;
  csrf: string;
  submit: string;
  cancel: string;
  values: SectionForm;
  errors: FieldErrors;
  error?: string;
  isNew: boolean;
  showPreview: boolean;
}): SafeHtml {
  const { values, errors } = input;
  const form = html`${formError(input.error)}
    ${postForm({
      action: input.action,
      csrf: input.csrf,
      submit: input.submit,
      aside: html`<button type="submit" name="intent" value="preview" class="secondary">Preview</button
        ><a href="${input.cancel}">Cancel</a>`,
      body: html`${input.isNew
        ? inputField({
            name: 'slug',
            label: 'Slug',
            hint: 'Lower-case letters, digits and hyphens, e.g. orders-api. It names the section in invitations and cannot change later.',
            value: values.slug,
            error: errors.slug,
            verbatim: true,
            required: true,
            maxlength: 64,
          })
        : ''}
      ${inputField({ name: 'title', label: 'Title', value: values.title, error: errors.title, required: true, maxlength: 200 })}
      ${textareaField({
        name: 'body',
        label: 'Text (Markdown)',
        hint: 'Headings with #, lists with -, links as [text](https://…), code between backticks. Scripts and raw HTML are removed.',
        value: values.body,
        error: errors.body,
        rows: 18,
        className: 'markdown-input',
      })}`,
    })}`;
  return html`<div class="editor ${input.showPreview ? 'with-preview' : ''}">
    <div>${form}</div>
    ${input.showPreview ? preview(values) : ''}
  </div>`;
}

function readerStatus(reader: SectionReader): SafeHtml {
  return reader.status === 'active' ? badge('active', 'good') : badge(reader.status, 'warn');
}

/** Who can read the section: the users it is open to, and the pending invitations that will open it. */
export function readersPanel(input: {
  readers: readonly SectionReader[];
  invitations: readonly (InvitationView & { name: string })[];
}): SafeHtml {
  return html`<section class="panel" aria-labelledby="readers-heading">
    <h2 id="readers-heading">Who can read it</h2>
    ${table({
      caption: 'People this section is open to',
      showCaption: true,
      columns: [
        { header: 'Name', cell: (r: SectionReader) => r.displayName },
        { header: 'Username', cell: (r: SectionReader) => html`<code>${r.username}</code>` },
        { header: 'Email', cell: (r: SectionReader) => r.email },
        { header: 'Account', cell: (r: SectionReader) => readerStatus(r) },
        { header: 'Since', cell: (r: SectionReader) => timeTag(new Date(r.grantedAt)) },
      ],
      rows: input.readers,
      empty: 'Nobody can read this section yet. Invite people to it from their user page.',
    })}
    ${input.invitations.length
      ? table({
          caption: 'Pending invitations that open it',
          showCaption: true,
          columns: [
            { header: 'Invited', cell: (i: InvitationView & { name: string }) => i.name },
            { header: 'Sections', cell: (i: InvitationView & { name: string }) => html`${i.sections.map((s) => html`<code>${s}</code> `)}` },
            { header: 'Link expires', cell: (i: InvitationView & { name: string }) => expiryTag(new Date(i.expiresAt)) },
          ],
          rows: input.invitations,
          empty: '',
        })
      : ''}
  </section>`;
}

function readersLoss(count: number): string {
  if (!count) return 'Nobody can read it yet.';
  return count === 1 ? 'The one person who can read it loses access at once.' : `The ${count} people who can read it lose access at once.`;
}

export function deleteConfirmation(input: { base: string; csrf: string; section: DocSectionView; readers: number }): SafeHtml {
  const { section } = input;
  return html`<p>
      This deletes <strong>${section.title}</strong> (<code>${section.slug}</code>) and its text.
      ${readersLoss(input.readers)}
      It cannot be undone.
    </p>
    ${postForm({
      action: `${input.base}/docs/${section.slug}/delete`,
      csrf: input.csrf,
      submit: 'Delete the section',
      button: 'danger',
      body: html``,
      aside: html`<a href="${input.base}/docs/${section.slug}">Cancel</a>`,
    })}`;
}
