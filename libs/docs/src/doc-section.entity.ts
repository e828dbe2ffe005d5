import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import { User } from '@gatehouse/accounts';
import { Tenant } from '@gatehouse/tenants';

/** A private documentation section (Markdown), opened to users one by one. */
@Entity({ name: 'doc_sections' })
@Index('doc_sections_tenant_slug_key', ['tenantId', 'slug'], { unique: true })
export class DocSection {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  @Column({ type: 'text' })
  slug: string;

  @Column({ type: 'text' })
  title: string;

  @Column({ type: 'text' })
  body: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

/** A user's access to a section: granted by accepting an invitation, revoked by the admin API. */
@Entity({ name: 'doc_section_grants' })
@Index('doc_section_grants_section_idx', ['sectionId'])
export class DocSectionGrant {
  @PrimaryColumn('uuid')
  userId: string;

  @PrimaryColumn('uuid')
  sectionId: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  @ManyToOne(() => DocSection, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'section_id' })
  section?: Relation<DocSection>;

  @CreateDateColumn({ type: 'timestamptz' })
  grantedAt: Date;
}
