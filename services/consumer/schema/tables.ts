// Row types of the consumer API's tables (see the migrations). Kysely reads these; the
// migrations are the source of truth for the SQL.
import type { ColumnType, Selectable } from "kysely";
import { profileScreenNames } from "../../../contracts/consumer.ts";
import type { MailLanguage } from "../../shared/language.ts";
import type { QueueTableColumns } from "../../shared/outbox.ts";

/** docs/product/data.md §6 screens, as identifiers, in tab order: the contract's screenNames. */
export const SCREENS = profileScreenNames;
export type Screen = (typeof SCREENS)[number];

export interface ConsumerProfilesTable {
  /** uuid; docs/product/data.md §3 SF_ConsumerId. */
  id: string;
  /** The identity authority's user id (JWT `sub`); one profile per user. */
  identity_user_id: ColumnType<string, string, never>;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  /** 'YYYY-MM-DD' (the `date` type is read as text, see lib/db). */
  dob: string;
  postal_code: string;
  marketing_opt_out: boolean;
  health_updates_opt_out: boolean;
  /** The product ID: 8 Crockford base32 characters; unique, never changed. */
  safe_window_id: ColumnType<string, string, never>;
  /** Where the profile was created from (docs/product/data.md §3: sent along at creation), degrees; null when not sent. */
  latitude: ColumnType<number | null, number | null, never>;
  longitude: ColumnType<number | null, number | null, never>;
  /** The safe window (docs/product/data.md §4), set from test results; null until a valid result exists. */
  strong_safety_date: Date | null;
  weak_safety_date: Date | null;
  safe_window_description: string | null;
  /** 0010: the proof of the result the window comes from (proof/check.ts proofLabel); null without one. */
  safe_window_proof: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
}

/** One row per screen a consumer may use (docs/product/data.md §6); operators add or delete rows. */
export interface ConsumerScreenPermissionsTable {
  consumer_id: string;
  screen: Screen;
}

/** A follow relation follower → followed (docs/product/data.md §3 Consumer subscription, §4): pending or confirmed. */
export interface ConsumerSubscriptionsTable {
  /** uuid; docs/product/data.md §3 sF_ConsumerSubscriptionId. */
  id: string;
  /** consumer_profiles.id of the person who follows (asked to follow). */
  follower_id: ColumnType<string, string, never>;
  /** consumer_profiles.id of the person followed; only they confirm or decline. */
  followed_id: ColumnType<string, string, never>;
  /** false while pending (docs/product/data.md §3: confirmed 0), true once the followed person confirmed (1). */
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
  /** The last mail language the user's requests asked for (0013_mail_language.ts); null: never said (English). */
  language: ColumnType<MailLanguage | null, MailLanguage | null | undefined, MailLanguage | null>;
}

/** A stored test result (docs/product/data.md §3 test result; docs/architecture/results-pipeline.md §5): what the PDF said and whether it matched. */
export interface ConsumerTestResultsTable {
  /** uuid; docs/product/data.md §3 sF_TestResultId. */
  id: string;
  consumer_id: ColumnType<string, string, never>;
  /** SHA-256 of the uploaded file, lower-case hex; unique per consumer (duplicate uploads). */
  file_sha256: ColumnType<string, string, never>;
  file_size: ColumnType<number, number, never>;
  /**
   * SHA-256 of the report's identity (0004_report_identity.ts reportIdentityKey: lab, name, date
   * of birth, collection time, test); unique per consumer (the same report in other bytes). Null
   * only on a copy stored before that migration.
   */
  report_key: ColumnType<string | null, string, never>;
  /** labs/ id of the issuer. */
  lab_id: ColumnType<string, string, never>;
  testing_company_name: ColumnType<string, string, never>;
  public_name: ColumnType<string, string, never>;
  disease_name: ColumnType<string, string, never>;
  test_name: ColumnType<string, string, never>;
  method: ColumnType<"NAAT" | "antigen", "NAAT" | "antigen", never>;
  result: ColumnType<"Negative" | "Positive" | "Inconclusive", "Negative" | "Positive" | "Inconclusive", never>;
  /** The result as the lab prints it (e.g. "NOT DETECTED", "Void"). */
  result_text: ColumnType<string, string, never>;
  collected_at: ColumnType<Date, Date, never>;
  collected_text: ColumnType<string, string, never>;
  /** The patient as the PDF names them, kept for re-matching after a profile change. */
  patient_given_names: ColumnType<string, string, never>;
  patient_last_name: ColumnType<string, string, never>;
  /** 'YYYY-MM-DD'. */
  patient_dob: ColumnType<string, string, never>;
  /** docs/product/data.md §3 valid (answered 0 / 1): the PDF matched the profile. */
  valid: boolean;
  /** The window the result opens by the rules (negative results only); counts while valid. */
  strong_safety_date: ColumnType<Date | null, Date | null, never>;
  weak_safety_date: ColumnType<Date | null, Date | null, never>;
  window_description: ColumnType<string, string, never>;
  /** docs/product/data.md §3 disputeStatus: 0 none, 1 submitted. */
  dispute_status: 0 | 1;
  dispute_comment: string | null;
  dispute_response_comment: string | null;
  disputed_at: Date | null;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
  /** Pages of the kept PDF (0005_result_pages.ts); null on a result stored before the PDF was kept. */
  page_count: ColumnType<number | null, number | null | undefined, never>;
  /** 0009: the lab's host a result by link was fetched from; null for an upload. */
  fetched_from: ColumnType<string | null, string | null | undefined, never>;
  /** 0010 (proof/check.ts): shc, dcc, link or document; the issuer or country; an unverified signature's scheme; a disagreement (0014: proof_disagreements). */
  proof_kind: ColumnType<"shc" | "dcc" | "link" | "document", "shc" | "dcc" | "link" | "document" | undefined, never>;
  proof_issuer: ColumnType<string | null, string | null | undefined, never>;
  proof_unverified: ColumnType<"SMART Health Card" | "EU DCC" | null, "SMART Health Card" | "EU DCC" | null | undefined, never>;
  /** 0014: JSON list of contracts/result-words.ts SignedCodeDisagreement; null when the signed code agrees (or there is none). */
  proof_disagreements: ColumnType<string | null, string | null | undefined, never>;
  /** The last review decision of its dispute (0006_dispute_reviews.ts); null until reviewed. */
  review_decision: ColumnType<"accept" | "decline" | null, "accept" | "decline" | null | undefined, "accept" | "decline" | null>;
  reviewed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** JSON text of the profile's checked fields an accepted result was accepted against; null otherwise. */
  review_profile: ColumnType<string | null, string | null | undefined, string | null>;
}

/** docs/product/data.md §3 test result property value: one per checked field of a result. */
export interface ConsumerTestResultPropertyValuesTable {
  /** uuid; docs/product/data.md §3 sF_TestResultPropertyValueId. */
  id: string;
  result_id: ColumnType<string, string, never>;
  /** 'Manual Review' records an accepted dispute (0006_dispute_reviews.ts). */
  name: ColumnType<PropertyValueName, PropertyValueName, never>;
  /** 0014: JSON of contracts/result-words.ts Finding; null when the field passed. */
  finding: string | null;
  /** Answer order. */
  position: ColumnType<number, number, never>;
}

/** One page of a result's PDF as a JPEG that fits 1250x1000 (docs/product/messages.md §9 image sizes). */
export interface ConsumerTestResultImagesTable {
  result_id: ColumnType<string, string, never>;
  /** 1-based; page 1 is drawn at upload, a later page on its first request (0005_result_pages.ts). */
  page: ColumnType<number, number | undefined, never>;
  jpeg: ColumnType<Uint8Array, Uint8Array, never>;
  width: ColumnType<number, number, never>;
  height: ColumnType<number, number, never>;
}

/** A key that signs SafeWindow Passes (0015_pass_keys.ts; pass/keys.ts). */
export interface ConsumerPassKeysTable {
  /** 1 to 8 characters: the pass header's `kid`. */
  kid: ColumnType<string, string, never>;
  /** The public JWK (ES256), as published. */
  public_jwk: ColumnType<string, string, never>;
  /** The private JWK sealed with DATA_DIR/consumer-pass-secret (lib/sealed-key.ts). */
  sealed_private_jwk: ColumnType<string, string, never>;
  /** Published from then. */
  created_at: ColumnType<Date, Date, never>;
  /** Signs passes from then, until a newer key does. */
  signs_from: ColumnType<Date, Date, never>;
}

/** The names of a result's property values: the three checked fields, and an accepted dispute's record. */
export type PropertyValueName = "First Name" | "Last Name" | "Date of Birth" | "Manual Review" | "Signed QR Code";

/** One decision on a disputed result: the audit trail of dispute reviews (0006_dispute_reviews.ts). */
export interface ConsumerDisputeReviewsTable {
  id: ColumnType<string, string, never>;
  result_id: ColumnType<string, string, never>;
  reviewer_identity_user_id: ColumnType<string, string, never>;
  reviewer_email: ColumnType<string, string, never>;
  decision: ColumnType<"accept" | "decline", "accept" | "decline", never>;
  /** What the user is told (1-1000 characters). */
  response_comment: ColumnType<string, string, never>;
  valid_before: ColumnType<boolean, boolean, never>;
  valid_after: ColumnType<boolean, boolean, never>;
  created_at: ColumnType<Date, Date, never>;
}

/** The original PDF of a result, exactly as uploaded (0005_result_pages.ts). */
export interface ConsumerTestResultFilesTable {
  result_id: ColumnType<string, string, never>;
  pdf: ColumnType<Uint8Array, Uint8Array, never>;
}

/** A mail of the consumer API (0007_outbox.ts): the queue's columns (services/shared/outbox.ts) and what the mail says. */
export interface ConsumerOutboxTable extends QueueTableColumns<"pending" | "sent" | "cancelled" | "failed"> {
  kind: "dispute_decided";
  recipient: string;
  result_id: string;
  decision: "accept" | "decline";
  response_comment: string;
  /** The result's lab and collection time, as they were when the mail was queued. */
  public_name: string;
  collected_at: Date;
  /** The mail's language, decided when it was queued (its owner's, never the reviewer's). */
  language: ColumnType<MailLanguage, MailLanguage | undefined, MailLanguage>;
}

/** A check-in code a person asked for (docs/venues.md "Check-in"): 2 minutes, one use. */
export interface ConsumerCheckinCodesTable {
  /** 6 characters of Crockford base32, upper case. */
  code: string;
  consumer_id: string;
  created_at: Date;
  expires_at: Date;
  /** When a location administrator entered it; null while unused. */
  used_at: Date | null;
  /** When the person asked for a newer code, which ends this one. */
  withdrawn_at: Date | null;
}

/** A check made on a person at a venue, and whether they were checked in and how they rated it. */
export interface ConsumerVisitsTable {
  id: string;
  consumer_id: string;
  /** The business API's location id, name, city and state when the check was made. */
  location_id: string;
  location_name: string;
  location_city: string;
  location_state: string;
  /** The identity user id of the location administrator who entered the code. */
  checked_by: string;
  checked_at: Date;
  /** What the venue saw: Strong, Weak or None, and the window's dates then. */
  window_state: "Strong" | "Weak" | "None";
  strong_safety_date: Date | null;
  weak_safety_date: Date | null;
  /** Set by Check in; null for a check that did not end in one. */
  checked_in_at: Date | null;
  /** 1-5, the person's own. */
  rating: number | null;
  rated_at: Date | null;
}

/**
 * Check-in codes entered that did not exist (docs/security/limits.md "Check-in code guesses"): one row per
 * scope, key and fixed window, shared by every consumer API process on the database.
 */
export interface ConsumerCheckinGuessesTable {
  scope: "caller" | "location" | "group" | "all";
  /** The caller's identity user id, the location id or the hospitality group id; '' for 'all'. */
  key: string;
  /** When the window began (a multiple of its length since the epoch). */
  window_start: Date;
  /** Attempts counted in the window: begun and not yet known to have named a code that exists. */
  misses: number;
}

export interface ConsumerDatabase {
  consumer_profiles: ConsumerProfilesTable;
  consumer_screen_permissions: ConsumerScreenPermissionsTable;
  consumer_test_results: ConsumerTestResultsTable;
  consumer_test_result_property_values: ConsumerTestResultPropertyValuesTable;
  consumer_pass_keys: ConsumerPassKeysTable;
  consumer_test_result_images: ConsumerTestResultImagesTable;
  consumer_test_result_files: ConsumerTestResultFilesTable;
  consumer_dispute_reviews: ConsumerDisputeReviewsTable;
  consumer_subscriptions: ConsumerSubscriptionsTable;
  consumer_identity_emails: ConsumerIdentityEmailsTable;
  consumer_outbox: ConsumerOutboxTable;
  consumer_checkin_codes: ConsumerCheckinCodesTable;
  consumer_visits: ConsumerVisitsTable;
  consumer_checkin_guesses: ConsumerCheckinGuessesTable;
}

export type ProfileRow = Selectable<ConsumerProfilesTable>;
