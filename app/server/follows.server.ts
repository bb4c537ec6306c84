/**
 * The follow screens' shared server work (docs/product/screens.md §2 /follower, /following): finding the relation a
 * screen was given by id among the user's own relations (so nobody opens another's relation), and
 * running a follow change with its docs/product/messages.md §8 message.
 */
import { data, redirect, type RouterContextProvider } from "react-router";
import { catalogues, type Messages } from "~/messages/catalogues";
import { messagesOf } from "./i18n.server";
import { consumerApi, type FollowChange, type Subscription } from "./upstream/consumer.server";
import { failureInit, valueOrThrow } from "./upstream/result.server";

/** The catalogue key of each follow change's docs/product/messages.md §8 message. */
const followFailedKeys = {
  request: "followRequestFailed",
  cancel: "followCancelFailed",
  confirm: "followConfirmFailed",
  decline: "followDeclineFailed",
  delete: "followDeleteFailed",
  unfollow: "unfollowFailed",
} as const satisfies Record<FollowChange, keyof Messages>;

/**
 * A failed follow change's message in the catalogue `m` of the request's language: the consumer
 * client words a failure with the change's English §8 message, which becomes `m`'s; a sentence the
 * consumer API wrote itself (its consumerMessage) is shown as it sent it (docs/architecture/behaviour.md
 * §4 "Language").
 * @param message the failure's message as the consumer client gave it
 */
export function followFailureMessage(m: Messages, change: FollowChange, message: string): string {
  const key = followFailedKeys[change];
  return message === catalogues.en[key] ? m[key] : message;
}

/**
 * The user's relation `id` from `side` (subscribers: people who follow the user; publishers:
 * people the user follows). @throws a 404 response when the user has no such relation
 */
export async function relationOf(context: Readonly<RouterContextProvider>, side: "subscribers" | "publishers", id: string | null): Promise<Subscription> {
  const relations = valueOrThrow(await consumerApi(context)[side]());
  const relation = relations.find((r) => r.sF_ConsumerSubscriptionId === id);
  if (!relation) throw data(null, { status: 404 });
  return relation;
}

/**
 * Runs `change` on `id`; on success redirects to `then`, else answers the change's docs/product/messages.md §8
 * message in the request's language (400 when refused, 502/503 when the consumer API failed).
 */
export async function followChange(context: Readonly<RouterContextProvider>, change: FollowChange, id: string, then: string) {
  const done = await consumerApi(context).follow(change, id);
  if (done.ok) return redirect(then);
  return data({ error: followFailureMessage(messagesOf(context), change, done.message) }, failureInit(done));
}
