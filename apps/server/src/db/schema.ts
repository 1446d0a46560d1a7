import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface OrganizationsTable {
  id: Generated<number>;
  /** The client id used in paths, lower case and unique. */
  name: string;
  org_name: string;
  org_short_name: string;
  primary_color: string | null;
  logo_key: string | null;
  logo_content_type: string | null;
  favicon_key: string | null;
  favicon_content_type: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UsersTable {
  id: Generated<number>;
  org_id: number;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  roles: ColumnType<string[], string[] | undefined, string[]>;
  is_superadmin: Generated<boolean>;
  is_active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: Timestamp;
}

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable;
  mail_outbox: MailOutboxTable;
}

export type Organization = Selectable<OrganizationsTable>;
export type NewOrganization = Insertable<OrganizationsTable>;
export type OrganizationUpdate = Updateable<OrganizationsTable>;
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
