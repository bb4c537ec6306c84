/**
 * The follow screens' shared server work (docs/product/screens.md §2 /follower, /following): finding the relation a
 * screen was given by id among the user's own relations (so nobody opens another's relation), and
 * running a follow change with its docs/product/messages.md §8 message.
 */
import { data, redirect, type RouterContextProvider } from "react-router";
import { consumerApi, type FollowChange, type Subscription } from "./upstream/consumer.server";
import { failureInit, valueOrThrow } from "./upstream/result.server";

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
 * message, which the consumer client words in the request's language (400 when refused, 502/503
 * when the consumer API failed).
 */
export async function followChange(context: Readonly<RouterContextProvider>, change: FollowChange, id: string, then: string) {
  const done = await consumerApi(context).follow(change, id);
  if (done.ok) return redirect(then);
  return data({ error: done.message }, failureInit(done));
}
