// Row types of the consumer API's tables (see the migrations). Kysely reads these; the
// migrations are the source of truth for the SQL.
import type { ColumnType, Selectable } from "kysely";

/** SPEC §6 screens, as identifiers, in tab order (safe window, my tests, …, people, settings). */
export const SCREENS = ["SafeWindow", "MyTests", "MyFun", "Locations", "Friends", "Settings"] as const;
export type Screen = (typeof SCREENS)[number];

export interface ConsumerProfilesTable {
  /** uuid; SPEC §3 SF_ConsumerId. */
  id: string;
  /** The identity authority's user id (JWT `sub`); one profile per user. */
  identity_user_id: ColumnType<string, string, never>;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  /** 'YYYY-MM-DD' (the `date` type is read as text, see services/db). */
  dob: string;
  postal_code: string;
  marketing_opt_out: boolean;
  health_updates_opt_out: boolean;
  /** The product ID: 8 Crockford base32 characters; unique, never changed. */
  safe_window_id: ColumnType<string, string, never>;
  /** Where the profile was created from (SPEC §3: sent along at creation), degrees; null when not sent. */
  latitude: ColumnType<number | null, number | null, never>;
  longitude: ColumnType<number | null, number | null, never>;
  /** The safe window (SPEC §4), set from test results; null until a valid result exists. */
  strong_safety_date: Date | null;
  weak_safety_date: Date | null;
  safe_window_description: string | null;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
}

/** One row per screen a consumer may use (SPEC §6); operators add or delete rows. */
export interface ConsumerScreenPermissionsTable {
  consumer_id: string;
  screen: Screen;
}

/** A follow relation follower → followed (SPEC §3 Consumer subscription, §4): pending or confirmed. */
export interface ConsumerSubscriptionsTable {
  /** uuid; SPEC §3 sF_ConsumerSubscriptionId. */
  id: string;
  /** consumer_profiles.id of the person who follows (asked to follow). */
  follower_id: ColumnType<string, string, never>;
  /** consumer_profiles.id of the person followed; only they confirm or decline. */
  followed_id: ColumnType<string, string, never>;
  /** false while pending (SPEC confirmed 0), true once the followed person confirmed (1). */
  confirmed: boolean;
  requested_at: ColumnType<Date, Date, never>;
  /** Set with confirmed = true, null while pending. */
  confirmed_at: Date | null;
}

/** The latest `email` claim seen in an identity user's token, for search by exact e-mail. Never answered. */
export interface ConsumerIdentityEmailsTable {
  /** The identity authority's user id (JWT `sub`). */
  identity_user_id: ColumnType<string, string, never>;
  email: string;
  updated_at: Date;
}

export interface ConsumerDatabase {
  consumer_profiles: ConsumerProfilesTable;
  consumer_screen_permissions: ConsumerScreenPermissionsTable;
  consumer_subscriptions: ConsumerSubscriptionsTable;
  consumer_identity_emails: ConsumerIdentityEmailsTable;
}

export type ProfileRow = Selectable<ConsumerProfilesTable>;
