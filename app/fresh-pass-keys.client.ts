/**
 * The published SafeWindow Pass keys fetched again by the checker's page (/.well-known/safewindow-pass-keys
 * beside /verify, docs/product/pass.md §11.6), for a pass signed by a key newer than the ones the
 * page carries: a page left open past a rotation. Never sends a pass anywhere.
 * @returns the JWK Set, or undefined offline or on any failure
 */
import type { JSONWebKeySet } from "jose";

export async function freshPassKeys(): Promise<JSONWebKeySet | undefined> {
  if (!navigator.onLine) return undefined;
  try {
    const base = `${location.origin}${location.pathname.replace(/verify\/?$/i, "")}`;
    const res = await fetch(`${base}.well-known/safewindow-pass-keys`, { cache: "no-store" });
    return res.ok ? ((await res.json()) as JSONWebKeySet) : undefined;
  } catch {
    return undefined;
  }
}
