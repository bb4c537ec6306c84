/**
 * Client of the business API (docs/product/calls.md §7.3; docs/venues.md; contract: contracts/business.ts):
 * the person's business user info, the administrator checks, hospitality groups and their
 * locations, the application and its roles, roles given at locations, subscriptions, invoices and
 * billing details. Server-only.
 *
 * Every call carries the signed-in user's access token (audience business.api); the API acts only
 * for that user. Every method answers `Result<T>` (docs/architecture/upstream-calls.md §6.3): the answer, validated
 * with the contract's schema, or a failure with the message of that call. A refusal the API
 * explains (400 or 409: an unknown ZIP code, a duplicate role, the last administrator, a change a
 * subscription cannot make) carries the API's sentence; a 401 sends the user to sign in again.
 * Same time limit and error mapping as the other clients (http.server.ts `callContract`).
 */
import type { RouterContextProvider } from "react-router";
import { businessCalls, type BusinessCallName } from "../../../contracts/business.ts";
import { getConfig } from "../config.server";
import { requestContext, userContext } from "../context";
import { callMessagesOf, upstreamLanguageOf } from "../i18n.server";
import { callContract, explainedRefusal, screenLoadMessages, type CallMessages, type ContractRequest } from "./http.server";

export type {
  Application,
  ApplicationRole,
  BillingDetails,
  HospitalityGroup,
  Invoice,
  LicensedAdministrator,
  Location,
  LocationAdministrator,
  LocationFields,
  BuildAndCreateRequest,
  NewSubscriptionRequest,
  SaveUserInfoPartialRequest,
  Subscription as VenueSubscription,
  UpdateRoleLocationRequest,
  UserInfo,
  UserRoleLocation,
} from "../../../contracts/business.ts";
import type { BuildAndCreateRequest, NewSubscriptionRequest, SaveUserInfoPartialRequest, UpdateRoleLocationRequest } from "../../../contracts/business.ts";

/** Messages of a change: `failed`, or the API's sentence for a refusal it explains. */
const changeMessages = (failed: string): CallMessages => ({ failed, answered: explainedRefusal });

/** The business API's base URL: BUSINESS_API_URL, or the embedded service's (server/app.ts hands it over at start). */
function businessUrl(): string {
  const url = getConfig().BUSINESS_API_URL;
  if (!url) throw new Error("BUSINESS_API_URL is not configured");
  return url;
}

/** The business API as the signed-in user of this request (`context`, inside the guard) sees it. */
export function businessApi(context: Readonly<RouterContextProvider>) {
  const user = context.get(userContext);
  const log = context.get(requestContext).log;
  const language = upstreamLanguageOf(context);
  // Failure messages in the request's language (docs/architecture/behaviour.md §4 "Language").
  const messages = callMessagesOf(context);
  const loadMessages = screenLoadMessages(messages);
  const call = <N extends BusinessCallName>(name: N, request: ContractRequest = {}, callMessages: CallMessages = loadMessages, optional = false) =>
    callContract(businessUrl(), name, businessCalls[name], { ...request, token: user.accessToken }, callMessages, {
      log,
      language,
      // A look-up a page can do without (optional) must not end the session: a business API that refuses
      // the token is then only a `refused` answer.
      ...(optional ? {} : { onUnauthorized: () => user.signInAgain() }),
    });

  return {
    /** GET /applicationsecurity/getuserinfo/: user name, names and mobile number (null until saved). */
    userInfo({ optional = false }: { optional?: boolean } = {}) {
      return call("getUserInfo", {}, loadMessages, optional);
    },
    /** POST /applicationsecurity/saveuserinfopartial/: the fields given (mobile number as 10 digits); the others stay. */
    saveUserInfo(changes: SaveUserInfoPartialRequest) {
      return call("saveUserInfoPartial", { json: changes }, changeMessages(messages.businessInfoSaveFailed));
    },
    /**
     * Extension POST /applicationsecurity/deleteuserinfo/: forgets the user's business user info (Delete my
     * account). `optional`: a business API that refuses the token or lacks the call holds nothing of theirs.
     */
    async deleteUserInfo() {
      const answer = await call("deleteUserInfo", {}, { failed: messages.deleteAccountFailed, unavailable: messages.deleteAccountFailed }, true);
      return answer.ok || answer.reason === "refused" || answer.reason === "notFound" ? { ok: true as const, value: true as const } : answer;
    },
    /** GET /applicationsecurity/isuserlicensedadministrator/: whether, and of which groups. */
    licensedAdministrator() {
      return call("isUserLicensedAdministrator");
    },
    /**
     * GET /applicationsecurity/isuserlocationadministrator/: the locations the user administers (only `locationId`
     * when given). `optional`: for a page that only adds a link with it, a refused token does not sign the user out.
     */
    locationAdministrator(locationId?: string, { optional = false }: { optional?: boolean } = {}) {
      return call("isUserLocationAdministrator", locationId === undefined ? {} : { query: { locationId } }, loadMessages, optional);
    },

    /** GET /hospitalitygroup/?hospitalityGroupId: the group and its locations (`notFound` unless the user has a role in it). */
    hospitalityGroup(hospitalityGroupId: string) {
      return call("getHospitalityGroup", { query: { hospitalityGroupId } });
    },
    /** GET /hospitalitygroup/getadministratorhospitalitygroups/: the groups the user is a licensed administrator of. */
    administratorGroups({ optional = false }: { optional?: boolean } = {}) {
      return call("getAdministratorHospitalityGroups", {}, loadMessages, optional);
    },
    /** GET /hospitalitygroup/getusersandroles/?hospitalityGroupId (licensed administrators; `refused` for a smaller role). */
    usersAndRoles(hospitalityGroupId: string) {
      return call("getUsersAndRoles", { query: { hospitalityGroupId } });
    },

    /** GET /application/getbyname?applicationName. */
    applicationByName(applicationName: string) {
      return call("getApplicationByName", { query: { applicationName } });
    },
    /** GET /application/getapplicationroles/?applicationId. */
    applicationRoles(applicationId: string) {
      return call("getApplicationRoles", { query: { applicationId } });
    },

    /** POST /applicationuserrolelocation/buildandcreate/: gives a role; builds a new location when `location` is given. */
    giveRole(grant: BuildAndCreateRequest) {
      return call("buildAndCreateRoleLocation", { json: grant }, changeMessages(grant.location ? messages.locationCreateFailed : messages.roleChangeFailed));
    },
    /** POST /applicationuserrolelocation/update/. */
    changeRole(change: UpdateRoleLocationRequest) {
      return call("updateRoleLocation", { json: change }, changeMessages(change.location ? messages.locationSaveFailed : messages.roleChangeFailed));
    },
    /** POST /applicationuserrolelocation/delete/: takes a role back (never the group's last licensed administrator). */
    async takeRole(applicationUserRoleLocationId: string) {
      const answer = await call("deleteRoleLocation", { json: { applicationUserRoleLocationId } }, changeMessages(messages.roleChangeFailed));
      return answer.ok ? { ok: true as const, value: true as const } : answer;
    },

    /** POST /subscription/create/: a new group, its subscription and first invoice; the user becomes its licensed administrator. */
    subscribe(subscription: NewSubscriptionRequest) {
      return call("createSubscription", { json: subscription }, changeMessages(messages.subscriptionFailed));
    },
    /** POST /subscription/updatestatus/: pause, resume or cancel. */
    setSubscriptionStatus(subscriptionId: string, status: "active" | "paused" | "canceled") {
      return call("updateSubscriptionStatus", { json: { subscriptionId, status } }, changeMessages(messages.subscriptionFailed));
    },
    /** POST /subscription/retryinvoice/: charges a failed invoice again (idempotent). */
    retryInvoice(invoiceId: string) {
      return call("retryInvoice", { json: { invoiceId } }, changeMessages(messages.invoiceRetryFailed));
    },
    /** GET /subscription/getbillingdetails/?hospitalityGroupId. */
    billingDetails(hospitalityGroupId: string) {
      return call("getBillingDetails", { query: { hospitalityGroupId } }, { failed: messages.billingLoadFailed, unavailable: messages.billingLoadFailed });
    },
  };
}
