import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False during server rendering and before hydration, true once JavaScript runs: controls that
 * only JavaScript can keep up to date (a disabled submit button) stay usable without it.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(subscribe, () => true, () => false);
}
