// Row types of the business API's tables (see the migrations, the source of truth for the SQL).
import type { ColumnType } from "kysely";
import type { invoiceStatuses, planNames, roleScopes, subscriptionStatuses } from "../../../contracts/business.ts";

export interface BusinessApplicationsTable {
  id: string;
  name: string;
  description: string;
}

export interface BusinessApplicationRolesTable {
  id: string;
  application_id: string;
  name: string;
  scope: (typeof roleScopes)[number];
}

/** A person as the business side knows them, keyed by the identity authority's user id (JWT `sub`). */
export interface BusinessUsersTable {
  identity_user_id: ColumnType<string, string, never>;
  /** The latest `email` claim of their tokens, as given. */
  email: string | null;
  /** The latest `email_verified` claim: roles given to an address are held only once it is confirmed. */
  email_verified: boolean;
  first_name: string | null;
  last_name: string | null;
  /** 10 digits (docs/product/data.md §5). */
  mobile_number: string | null;
  updated_at: Date;
}

export interface BusinessHospitalityGroupsTable {
  id: string;
  name: string;
  address: string;
  city: string;
  state: string;
  postal_code: string;
  phone: string;
  /** The subscriber's e-mail address: the billing contact. */
  billing_email: string;
  created_at: ColumnType<Date, Date, never>;
}

export interface BusinessLocationsTable {
  id: string;
  hospitality_group_id: ColumnType<string, string, never>;
  name: string;
  address: string;
  city: string;
  state: string;
  postal_code: string;
  phone: string;
  /** Degrees (WGS 84). */
  latitude: number;
  longitude: number;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
}

/** A role given to an e-mail address in a group, at one location for a location role (location_id null for a group role). */
export interface BusinessUserRoleLocationsTable {
  id: string;
  hospitality_group_id: ColumnType<string, string, never>;
  application_role_id: string;
  /** Lower case. */
  email: string;
  location_id: string | null;
  created_at: ColumnType<Date, Date, never>;
}

export interface BusinessSubscriptionsTable {
  id: string;
  hospitality_group_id: ColumnType<string, string, never>;
  plan: (typeof planNames)[number];
  status: (typeof subscriptionStatuses)[number];
  current_period_end: Date;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
}

export interface BusinessInvoicesTable {
  id: string;
  subscription_id: ColumnType<string, string, never>;
  amount_cents: number;
  status: (typeof invoiceStatuses)[number];
  /** Charges tried, the first included. */
  attempts: number;
  period_start: Date;
  period_end: Date;
  created_at: ColumnType<Date, Date, never>;
  paid_at: Date | null;
}

export interface BusinessDatabase {
  business_applications: BusinessApplicationsTable;
  business_application_roles: BusinessApplicationRolesTable;
  business_users: BusinessUsersTable;
  business_hospitality_groups: BusinessHospitalityGroupsTable;
  business_locations: BusinessLocationsTable;
  business_user_role_locations: BusinessUserRoleLocationsTable;
  business_subscriptions: BusinessSubscriptionsTable;
  business_invoices: BusinessInvoicesTable;
}
