/**
 * The shape every translation of the message catalogue must have: the English modules of
 * app/messages/ are the source, and a translation has each of their exports, of the same kind (a
 * string for a string, a function of the same parameters answering the same kind for a function,
 * an object with the same keys for an object), worded in its language (docs/architecture/behaviour.md §4 "Language").
 * A translation that lacks a key, adds one, or changes a function's parameters fails the typecheck.
 */

/** One entry of a translation, of the same kind as the English entry `T`. */
export type Translation<T> = T extends string
  ? string
  : T extends (...args: infer A) => infer R
    ? (...args: A) => Translation<R>
    : T extends object
      ? { readonly [K in keyof T]: Translation<T[K]> }
      : T;

/** A whole translation of the catalogue module (or namespace) `M`. */
export type Catalogue<M> = { readonly [K in keyof M]: Translation<M[K]> };

/** `true` when `T` has no key that `Source` lacks (used as a type-level check: a translation adds no key). */
export type NoExtraKeys<T, Source> = [Exclude<keyof T, keyof Source>] extends [never] ? true : false;
