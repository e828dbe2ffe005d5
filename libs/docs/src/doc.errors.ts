export enum DocErrorCode {
  NotFound = 'doc_section_not_found',
  SlugTaken = 'doc_section_slug_taken',
  /** The user has no access to that section (or the section does not exist). */
  AccessNotFound = 'doc_section_access_not_found',
}

export class DocError extends Error {
  constructor(
    readonly code: DocErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DocError';
  }
}
