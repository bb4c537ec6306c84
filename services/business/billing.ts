// Subscriptions, invoices and billing details (docs/venues.md "Subscriptions"; contracts/business.ts
// createSubscription, updateSubscriptionStatus, retryInvoice, getBillingDetails). They are records
// with states: no payment provider is called, so a charge always succeeds here; an invoice is
// `failed` only when an operator or a test records it so (the seed command makes one).
//
// States: a subscription is active, past_due (an invoice failed), paused, or canceled (final); an
// invoice is paid, failed or void. updatestatus moves active ⇄ paused, and anything but canceled to
// canceled (its failed invoices become void); past_due ends only by paying (retryinvoice). Every
// change of a group's billing runs in a transaction that locks the subscription's row.
import { randomUUID } from "node:crypto";
import type { Kysely, Selectable, Transaction } from "kysely";
import { plans, roleNames } from "../../contracts/business.ts";
import type { BillingDetails, HospitalityGroup, Invoice, NewSubscriptionRequest, Subscription } from "../../contracts/business.ts";
import type { AuthenticatedUser } from "../shared/auth.ts";
import { BusinessError } from "./errors.ts";
import { isUuid } from "../shared/ids.ts";
import { getHospitalityGroup, requireLicensed } from "./groups.ts";
import type { BusinessDatabase, BusinessInvoicesTable, BusinessSubscriptionsTable } from "./schema/tables.ts";
import { heldEmail } from "./users.ts";

type Db = Kysely<BusinessDatabase>;

/** How many invoices billing details lists, newest first. */
export const INVOICES_LISTED = 24;

function subscriptionOf(row: Selectable<BusinessSubscriptionsTable>): Subscription {
  return {
    subscriptionId: row.id,
    hospitalityGroupId: row.hospitality_group_id,
    plan: row.plan,
    status: row.status,
    currentPeriodEnd: row.current_period_end.toISOString(),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function invoiceOf(row: Selectable<BusinessInvoicesTable>): Invoice {
  return {
    invoiceId: row.id,
    subscriptionId: row.subscription_id,
    amountCents: row.amount_cents,
    status: row.status,
    attempts: row.attempts,
    periodStart: row.period_start.toISOString(),
    periodEnd: row.period_end.toISOString(),
    createdAt: row.created_at.toISOString(),
    paidAt: row.paid_at?.toISOString() ?? null,
  };
}

/** `at` plus `months` calendar months (UTC; the 31st of a shorter month is its last day). */
export function addMonths(at: Date, months: number): Date {
  const end = new Date(at);
  const day = end.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + months);
  const last = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, last));
  return end;
}

/**
 * POST /subscription/create: a new hospitality group with its subscription and first invoice
 * (paid), and the caller as its licensed administrator, in one transaction.
 * @throws BusinessError email_unverified when the caller's e-mail address is not confirmed
 */
export async function createSubscription(db: Db, user: AuthenticatedUser, body: NewSubscriptionRequest, now: Date): Promise<{ hospitalityGroup: HospitalityGroup; subscription: Subscription }> {
  const email = heldEmail(user);
  if (!email) throw new BusinessError("email_unverified", "Confirm your e-mail address before subscribing.");
  const plan = plans[body.plan];
  const periodEnd = addMonths(now, plan.months);
  const groupId = randomUUID();
  const subscription = await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("business_hospitality_groups")
      .values({ id: groupId, name: body.businessName, address: body.address, city: body.city, state: body.state, postal_code: body.postalCode, phone: body.phone, billing_email: email, created_at: now })
      .execute();
    const role = await trx.selectFrom("business_application_roles").select("id").where("name", "=", roleNames.licensedAdministrator).executeTakeFirstOrThrow();
    await trx.insertInto("business_user_role_locations").values({ id: randomUUID(), hospitality_group_id: groupId, application_role_id: role.id, email, location_id: null, created_at: now }).execute();
    const row = await trx
      .insertInto("business_subscriptions")
      .values({ id: randomUUID(), hospitality_group_id: groupId, plan: body.plan, status: "active", current_period_end: periodEnd, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("business_invoices")
      .values({ id: randomUUID(), subscription_id: row.id, amount_cents: plan.priceCents, status: "paid", attempts: 1, period_start: now, period_end: periodEnd, created_at: now, paid_at: now })
      .execute();
    return row;
  });
  return { hospitalityGroup: await getHospitalityGroup(db, user, groupId), subscription: subscriptionOf(subscription) };
}

/**
 * Checks that the caller may change the subscription (a licensed administrator of its group), then
 * reads it again locked inside `trx`. The check runs before the transaction: the embedded database
 * has one connection, which the transaction holds.
 * @throws BusinessError not_found (also for a group the caller has no role in) / forbidden
 */
async function subscriptionForChange(db: Db, user: AuthenticatedUser, subscriptionId: string): Promise<string> {
  const missing = () => new BusinessError("not_found", "No such subscription.");
  const row = isUuid(subscriptionId) ? await db.selectFrom("business_subscriptions").select(["id", "hospitality_group_id"]).where("id", "=", subscriptionId).executeTakeFirst() : undefined;
  if (!row) throw missing();
  try {
    await requireLicensed(db, user, row.hospitality_group_id);
  } catch (err) {
    throw err instanceof BusinessError && err.code === "not_found" ? missing() : err;
  }
  return row.id;
}

async function lockSubscription(trx: Transaction<BusinessDatabase>, subscriptionId: string) {
  return trx.selectFrom("business_subscriptions").selectAll().where("id", "=", subscriptionId).forUpdate().executeTakeFirstOrThrow();
}

/**
 * POST /subscription/updatestatus: active ⇄ paused; anything but canceled → canceled, which voids
 * its failed invoices. Setting the status it has is answered as it is.
 * @throws BusinessError not_found / forbidden; invalid_transition (from canceled, or past_due → active or paused)
 */
export async function updateSubscriptionStatus(db: Db, user: AuthenticatedUser, subscriptionId: string, status: "active" | "paused" | "canceled", now: Date): Promise<Subscription> {
  const id = await subscriptionForChange(db, user, subscriptionId);
  return db.transaction().execute(async (trx) => {
    const row = await lockSubscription(trx, id);
    if (row.status === status) return subscriptionOf(row);
    if (row.status === "canceled") throw new BusinessError("invalid_transition", "A canceled subscription cannot change; subscribe again.");
    if (row.status === "past_due" && status !== "canceled") throw new BusinessError("invalid_transition", "This subscription has an unpaid invoice: retry the invoice first.");
    if (status === "canceled") {
      await trx.updateTable("business_invoices").set({ status: "void" }).where("subscription_id", "=", row.id).where("status", "=", "failed").execute();
    }
    const updated = await trx.updateTable("business_subscriptions").set({ status, updated_at: now }).where("id", "=", row.id).returningAll().executeTakeFirstOrThrow();
    return subscriptionOf(updated);
  });
}

/**
 * POST /subscription/retryinvoice: charges a failed invoice again (here: it is paid, one more
 * attempt); a past-due subscription with nothing else unpaid becomes active. A paid invoice is
 * answered as it is, with no new attempt (idempotent).
 * @throws BusinessError not_found / forbidden; invalid_transition for a void invoice
 */
export async function retryInvoice(db: Db, user: AuthenticatedUser, invoiceId: string, now: Date): Promise<{ invoice: Invoice; subscription: Subscription }> {
  const missing = () => new BusinessError("not_found", "No such invoice.");
  if (!isUuid(invoiceId)) throw missing();
  const found = await db.selectFrom("business_invoices").select("subscription_id").where("id", "=", invoiceId).executeTakeFirst();
  if (!found) throw missing();
  const subscriptionId = await subscriptionForChange(db, user, found.subscription_id).catch((err: unknown) => {
    throw err instanceof BusinessError && err.code === "not_found" ? missing() : err;
  });
  return db.transaction().execute(async (trx) => {
    let subscription = await lockSubscription(trx, subscriptionId);
    let invoice = await trx.selectFrom("business_invoices").selectAll().where("id", "=", invoiceId).executeTakeFirstOrThrow();
    if (invoice.status === "void") throw new BusinessError("invalid_transition", "This invoice is void: its subscription was canceled.");
    if (invoice.status === "failed") {
      invoice = await trx
        .updateTable("business_invoices")
        .set((eb) => ({ status: "paid", attempts: eb("attempts", "+", 1), paid_at: now }))
        .where("id", "=", invoice.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const unpaid = await trx.selectFrom("business_invoices").select("id").where("subscription_id", "=", subscription.id).where("status", "=", "failed").executeTakeFirst();
      if (subscription.status === "past_due" && !unpaid) {
        subscription = await trx.updateTable("business_subscriptions").set({ status: "active", updated_at: now }).where("id", "=", subscription.id).returningAll().executeTakeFirstOrThrow();
      }
    }
    return { invoice: invoiceOf(invoice), subscription: subscriptionOf(subscription) };
  });
}

/**
 * GET getbillingdetails: the billing contact and address, the latest subscription and the newest invoices.
 * @throws BusinessError not_found / forbidden (requireLicensed)
 */
export async function billingDetails(db: Db, user: AuthenticatedUser, hospitalityGroupId: string): Promise<BillingDetails> {
  if (!isUuid(hospitalityGroupId)) throw new BusinessError("not_found", "No such hospitality group.");
  await requireLicensed(db, user, hospitalityGroupId);
  const group = await db.selectFrom("business_hospitality_groups").selectAll().where("id", "=", hospitalityGroupId).executeTakeFirstOrThrow();
  const subscription = await db.selectFrom("business_subscriptions").selectAll().where("hospitality_group_id", "=", hospitalityGroupId).orderBy("created_at", "desc").orderBy("id").limit(1).executeTakeFirst();
  const invoices = await db
    .selectFrom("business_invoices")
    .innerJoin("business_subscriptions as s", "s.id", "business_invoices.subscription_id")
    .selectAll("business_invoices")
    .where("s.hospitality_group_id", "=", hospitalityGroupId)
    .orderBy("business_invoices.created_at", "desc")
    .orderBy("business_invoices.id")
    .limit(INVOICES_LISTED)
    .execute();
  return {
    hospitalityGroupId: group.id,
    billingName: group.name,
    billingEmail: group.billing_email,
    address: group.address,
    city: group.city,
    state: group.state,
    postalCode: group.postal_code,
    subscription: subscription ? subscriptionOf(subscription) : null,
    invoices: invoices.map(invoiceOf),
  };
}
