/**
 * The follow screens' shared server work (docs/product.md §2 /follower, /following): finding the relation a
 * screen was given by id among the user's own relations (so nobody opens another's relation), and
 * running a follow change with its docs/product.md §8 message.
 */
import { data, redirect } from "react-router";
import type { SessionUser } from "./context";
import { consumerApi, type FollowChange, type Subscription } from "./upstream/consumer.server";

/**
 * The user's relation `id` from `side` (subscribers: people who follow the user; publishers:
 * people the user follows). @throws a 404 response when the user has no such relation
 */
export async function relationOf(user: SessionUser, side: "subscribers" | "publishers", id: string | null): Promise<Subscription> {
  const relations = await consumerApi(user)[side]();
  const relation = relations.find((r) => r.sF_ConsumerSubscriptionId === id);
  if (!relation) throw data(null, { status: 404 });
  return relation;
}

/**
 * Runs `change` on `id`; on success redirects to `then`, else answers `failure` (docs/product.md §8) with 502.
 */
export async function followChange(user: SessionUser, change: FollowChange, id: string, then: string, failure: string) {
  const done = await consumerApi(user).follow(change, id);
  if (done) return redirect(then);
  return data({ error: failure }, { status: 502 });
}
